import { afterResponse } from "@/app/after-response";
import { apiRoute } from "@/lib/api/route";
import { EvidenceAnswerSchema, EvidenceQuerySchema, LIMITS } from "@/lib/api/schemas";
import { askEvidenceQuestion } from "@/lib/server/questions";
import { citationJson } from "@/lib/server/questions";
import { otherMethods } from "@/lib/api/respond";
import { describeOutcomes } from "@/lib/evidence/outcomes";

export const dynamic = "force-dynamic";

/** YES with citations to verbatim bytes, NO only over complete evidence, or INSUFFICIENT_EVIDENCE with blockers. */
export const POST = apiRoute({
  permission: "read",
  body: EvidenceQuerySchema,
  response: EvidenceAnswerSchema,
  handler: async ({ caller, body }) => {
    const result = await askEvidenceQuestion(
      { projectId: caller.projectId, question: body.question, scope: body.scope },
      new Date(),
      {
        keepVerdicts: afterResponse,
      },
    );
    const page = <T>(list: T[], window: { offset: number; limit: number } = { offset: 0, limit: LIMITS.evidenceListDefault }) =>
      list.slice(window.offset, window.offset + window.limit);
    return {
      answer: result.answer,
      question: { id: result.question.id, title: result.question.title },
      citations: page(result.citations, body.page.citations).map(citationJson),
      blockers: page(result.blockers, body.page.blockers).map((b) => ({
        sessionId: b.sessionId,
        spanId: b.spanId,
        seq: b.seq,
        class: b.class,
        provenance: b.provenance,
        dropped: b.dropped,
        originalHeld: b.originalHeld,
        unblockBy: b.unblockBy,
        reason: b.reason,
      })),
      citationCount: result.citationCount,
      blockerCount: result.blockerCount,
      gaps: result.gaps,
      checkedSpans: result.checkedSpans,
      scopeComplete: result.scopeComplete,
      skippedRecords: result.skippedRecords,
      noSpansInScope: result.noSpansInScope,
      outcomes: result.outcomes,
      outcomeSummary: describeOutcomes(result.outcomes),
    };
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
