import { afterResponse } from "@/app/after-response";
import { apiRoute } from "@/lib/api/route";
import { EvidenceAnswerSchema, EvidenceQuerySchema, LIMITS } from "@/lib/api/schemas";
import { NextResponse } from "next/server";
import {
  askEvidenceQuestion,
  checkEvidenceQuestion,
  type EvidenceQueryResult,
  type QuestionProgress,
  questionJobFor,
} from "@/lib/server/questions";
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
    const input = { projectId: caller.projectId, question: body.question, scope: body.scope };
    // Checked before it is queued: a bad question is this request's error, not a failed job.
    if (body.async) await checkEvidenceQuestion(input);
    // Progress reported before the question turns into a job, then into the job's row.
    let progressSoFar: QuestionProgress | null = null;
    let report = (p: QuestionProgress) => {
      progressSoFar = p;
    };
    const answer = askEvidenceQuestion(input, new Date(), {
      // In a job, the verdicts are kept before the answer is; in a request, after the response.
      ...(body.async ? {} : { keepVerdicts: afterResponse }),
      onProgress: (p) => report(p),
    }).then((result) => render(result, body.page));
    // A question asked with "async", or still judging after a few seconds, goes on as a job.
    const inTime = body.async
      ? null
      : await Promise.race([
          answer.then((rendered) => ({ rendered })),
          new Promise<null>((resolve) => {
            setTimeout(() => resolve(null), SYNC_QUESTION_MS);
          }),
        ]);
    if (inTime) return inTime.rendered;
    const { job, progress } = await questionJobFor(caller.projectId, caller.label, answer, progressSoFar);
    report = progress;
    return NextResponse.json(
      { job: { id: job.id, status: job.status } },
      { status: 202, headers: { Location: `/api/v1/evidence/jobs/${job.id}` } },
    );
  },
});

/** How long a question may take inside its request before it goes on as a job. */
const SYNC_QUESTION_MS = 5_000;

type Window = { offset: number; limit: number };

function render(result: EvidenceQueryResult, pages: { citations?: Window; blockers?: Window }) {
  const page = <T>(list: T[], window: Window = { offset: 0, limit: LIMITS.evidenceListDefault }) =>
    list.slice(window.offset, window.offset + window.limit);
  return {
    answer: result.answer,
    question: { id: result.question.id, title: result.question.title },
    citations: page(result.citations, pages.citations).map(citationJson),
    blockers: page(result.blockers, pages.blockers).map((b) => ({
      sessionId: b.sessionId,
      spanId: b.spanId,
      seq: b.seq,
      class: b.class,
      provenance: b.provenance,
      dropped: b.dropped,
      originalHeld: b.originalHeld,
      unblockBy: b.unblockBy,
      reason: b.reason,
      ...(b.outcomeInDoubt ? { outcomeInDoubt: true } : {}),
      ...(b.unknownEffect ? { unknownEffect: true } : {}),
    })),
    citationCount: result.citationCount,
    blockerCount: result.blockerCount,
    gaps: result.gaps,
    checkedSpans: result.checkedSpans,
    scopeComplete: result.scopeComplete,
    skippedRecords: result.skippedRecords,
    noSpansInScope: result.noSpansInScope,
    completeness: result.completeness,
    outcomes: result.outcomes,
    outcomeSummary: describeOutcomes(result.outcomes),
  };
}

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
