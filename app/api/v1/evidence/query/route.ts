import { NextResponse } from "next/server";
import { afterResponse } from "@/app/after-response";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { EvidenceAnswerSchema, EvidenceQuerySchema } from "@/lib/api/evidence-schemas";
import { answerOrQueue } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/**
 * YES with citations to verbatim bytes, NO only over complete evidence, or INSUFFICIENT_EVIDENCE
 * with blockers; asked with "async", or still judging after a few seconds, 202 with a job to poll.
 */
export const POST = apiRoute({
  permission: "read",
  body: EvidenceQuerySchema,
  response: EvidenceAnswerSchema,
  handler: async ({ caller, body }) => {
    const asked = await answerOrQueue({ projectId: caller.projectId, question: body.question, scope: body.scope }, caller.label, {
      pages: body.page,
      ...(body.async ? { async: true } : {}),
      keepVerdicts: afterResponse,
    });
    if ("answer" in asked) return asked.answer;
    return NextResponse.json({ job: asked.job }, { status: 202, headers: { Location: `/api/v1/evidence/jobs/${asked.job.id}` } });
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
