/**
 * The Evidence page's side of question jobs: ask within the page's time, else go on as a job whose
 * progress, then answer, the page polls; and the job as the dashboard reads it.
 */
import type { KindCount } from "@/lib/evidence/manifest";
import { describeOutcomes } from "@/lib/evidence/outcomes";
import type { CitedBytes, CompletenessCase, UnblockAct } from "@/lib/evidence/questions";
import {
  askEvidenceQuestion,
  type AskOptions,
  type EvidenceQueryInput,
  type EvidenceQueryResult,
  type QuestionProgress,
} from "./ask";
import { getQuestionJob, questionJobFor } from "./jobs";

/** Rows of each list a job's answer keeps for the page (the export has them all). */
export const JOB_ANSWER_ROWS = 100;

/** What the page shows of an answer judged as a job: its words and counts, and its first rows. */
export interface QuestionJobAnswer {
  question: { title: string };
  answer: EvidenceQueryResult["answer"];
  citationCount: number;
  blockerCount: number;
  checkedSpans: number;
  sessionsInScope?: number;
  scopeComplete: boolean;
  noSpansInScope: boolean;
  /** Absent on answers kept from before the case existed. */
  completeness?: CompletenessCase;
  outcomeSummary: string;
  citations: Array<CitedBytes & { outcome: string | null; exitCode: number | null }>;
  /** As the page shows them: where each is, why it blocks, what its summary dropped, whether its original is held, what unblocks it. */
  blockers: Array<{
    sessionId: string;
    spanId: string;
    seq: number;
    class: string;
    provenance: string;
    dropped: KindCount[];
    originalHeld: boolean;
    unblockBy: UnblockAct;
    reason: string;
  }>;
}

/** A question job as the dashboard polls it. */
export interface QuestionJobView {
  id: string;
  status: "RUNNING" | "DONE" | "FAILED";
  candidateSpans: number;
  sessionsDone: number;
  sessionsTotal: number;
  answer: QuestionJobAnswer | null;
  error: string | null;
}

export function questionJobAnswer(result: EvidenceQueryResult): QuestionJobAnswer {
  return {
    question: { title: result.question.title },
    answer: result.answer,
    citationCount: result.citationCount,
    blockerCount: result.blockerCount,
    checkedSpans: result.checkedSpans,
    sessionsInScope: result.sessionsInScope,
    scopeComplete: result.scopeComplete,
    noSpansInScope: result.noSpansInScope,
    completeness: result.completeness,
    outcomeSummary: describeOutcomes(result.outcomes),
    citations: result.citations.slice(0, JOB_ANSWER_ROWS).map((c) => ({
      sessionId: c.sessionId,
      spanId: c.spanId,
      seq: c.seq,
      byteStart: c.byteStart,
      byteEnd: c.byteEnd,
      sha256: c.sha256,
      excerpt: c.excerpt,
      outcome: c.outcome ?? null,
      exitCode: c.exitCode ?? null,
    })),
    blockers: result.blockers.slice(0, JOB_ANSWER_ROWS).map((b) => ({
      sessionId: b.sessionId,
      spanId: b.spanId,
      seq: b.seq,
      class: b.class,
      provenance: b.provenance,
      dropped: b.dropped.map((d) => ({ kind: d.kind, count: d.count })),
      originalHeld: b.originalHeld,
      unblockBy: b.unblockBy,
      reason: b.reason,
    })),
  };
}

/**
 * Answers within `withinMs`, or goes on as a job (its row written now) and returns that. A bad
 * question fails here, as it would at once: its checks come before any judging.
 */
export async function askOrQueue(
  input: EvidenceQueryInput,
  requester: string,
  options: { withinMs: number; keepVerdicts?: AskOptions["keepVerdicts"] },
): Promise<{ result: EvidenceQueryResult } | { job: QuestionJobView }> {
  // Progress so far, then into the job's row once it is written.
  let latest: QuestionProgress | null = null;
  let forward: ((p: QuestionProgress) => void) | null = null;
  const answer = askEvidenceQuestion(input, new Date(), {
    ...(options.keepVerdicts ? { keepVerdicts: options.keepVerdicts } : {}),
    onProgress: (p) => {
      latest = p;
      forward?.(p);
    },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inTime = await Promise.race([
    answer.then((result) => ({ result })),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), options.withinMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (inTime) return inTime;
  const { job, progress } = await questionJobFor(
    input.projectId,
    requester,
    answer.then(questionJobAnswer),
    latest,
    () => latest,
  );
  forward = progress;
  const reported = latest as QuestionProgress | null;
  if (reported) progress(reported); // what came while the row was being written
  return { job: jobView(job) };
}

/** A project's question job for the dashboard (NOT_FOUND for another project's, or none). */
export async function questionJobView(projectId: string, id: string): Promise<QuestionJobView> {
  return jobView(await getQuestionJob(projectId, id));
}

function jobView(job: Awaited<ReturnType<typeof getQuestionJob>>): QuestionJobView {
  return {
    id: job.id,
    status: job.status,
    candidateSpans: job.candidateSpans,
    sessionsDone: job.sessionsDone,
    sessionsTotal: job.sessionsTotal,
    answer: (job.answer as QuestionJobAnswer | null) ?? null,
    error: job.error,
  };
}
