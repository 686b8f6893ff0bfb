import { NextResponse } from "next/server";
import { AppError } from "@/lib/core/errors";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { evidenceQueryFromUrl, exportAsCsv, exportEvidence, exportStream } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/**
 * The answer shown on the Evidence page as an export: the sealed JSON document (every citation
 * and blocker, with its hashes; `custodian verify-export` checks it), or the same answer as CSV
 * with the document's facts on top. Audited, with the document's hash, before it is sent.
 */
export async function GET(request: Request, { params: route }: { params: Promise<{ slug: string }> }) {
  try {
    // A non-member gets 404, as for a project that does not exist, before anything is read.
    const { project, user } = await authorizeMember((await route).slug, "read");
    const params = new URL(request.url).searchParams;
    const input = await evidenceQueryFromUrl(project.id, params);
    if (!input) throw new AppError("VALIDATION_FAILED", "Choose a question", { fields: [{ path: "q", message: "required" }] });
    const format = params.get("format") === "csv" ? "csv" : "json";
    const { document, result } = await exportEvidence({ input, project, askedBy: { id: user.id, email: user.email }, format });
    const name = `custodian-${document.question.id}-${document.askedAt.slice(0, 10)}`;
    const headers = { "X-Custodian-Export-Sha256": document.exportSha256 };
    if (format === "csv") {
      return new NextResponse(exportAsCsv(document, result), {
        headers: {
          ...headers,
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${name}.csv"`,
        },
      });
    }
    return new NextResponse(exportStream(document), {
      headers: {
        ...headers,
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${name}.json"`,
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
