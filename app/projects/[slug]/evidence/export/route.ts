import { NextResponse } from "next/server";
import { afterResponse } from "@/app/after-response";
import { AppError } from "@/lib/core/errors";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { recordAudit } from "@/lib/server/audit";
import { askEvidenceQuestion } from "@/lib/server/questions";
import { answerAsCsv, answerAsJson } from "@/lib/server/questions";
import { evidenceQueryFromParams } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/** The answer shown on the Evidence page, with its citations, as a JSON or CSV download. */
export async function GET(request: Request, { params: route }: { params: Promise<{ slug: string }> }) {
  try {
    // A non-member gets 404, as for a project that does not exist, before anything is read.
    const { project, actor } = await authorizeMember((await route).slug, "read");
    const params = new URL(request.url).searchParams;
    const input = evidenceQueryFromParams(project.id, params);
    if (!input) throw new AppError("VALIDATION_FAILED", "Choose a question", { fields: [{ path: "q", message: "required" }] });
    const result = await askEvidenceQuestion(input, new Date(), { keepVerdicts: afterResponse });
    const name = `custodian-${result.question.id}-${new Date().toISOString().slice(0, 10)}`;
    const format = params.get("format") === "csv" ? "csv" : "json";
    // Who took which evidence out, before it leaves: an export the log cannot record is not sent.
    await recordAudit({
      projectId: project.id,
      actor,
      act: "evidence.export",
      targetType: "project",
      targetId: project.id,
      after: {
        question: { id: result.question.id, title: result.question.title, anyOf: result.question.anyOf },
        scope: input.scope ?? {},
        format,
        answer: result.answer,
        citations: result.citations.length,
      },
    });
    if (format === "csv") {
      return new NextResponse(answerAsCsv(result), {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.csv"` },
      });
    }
    return NextResponse.json(answerAsJson(result), { headers: { "Content-Disposition": `attachment; filename="${name}.json"` } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
