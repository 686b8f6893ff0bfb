import { forgetQuietOtlpSpans, releaseHeldOtlpSpans } from "@/lib/server/integrations";
import { failInterruptedQuestionJobs, forgetFinishedQuestionJobs, forgetUnreadableVerdicts } from "@/lib/server/questions";
import { type SweepResult, sweep } from "@/lib/server/retention";

export interface MaintenanceResult extends SweepResult {
  /** Stored verdicts of evidence questions that no current question can read any more. */
  verdictsForgotten: number;
  /** Raw OTLP spans of conversations quiet for their project's narrative TTL. */
  otlpSpansForgotten: number;
  /** Spans ingested from OTLP spans held for an ancestor that did not come within the wait. */
  otlpHeldSpansReleased: number;
  /** Question jobs finished more than a day ago, deleted. */
  questionJobsForgotten: number;
  /** Question jobs left running by a server that stopped, marked failed. */
  questionJobsInterrupted: number;
}

/**
 * One round of upkeep, as the schedule and `npm run sweep` run it: delete expired originals and
 * re-verify the oldest verified ones (retention), then forget stored question verdicts that no
 * current question can read (questions), and the OTLP receiver's raw spans of quiet conversations
 * (integrations), and question jobs finished a day ago or left running by a stopped server
 * (questions). Composed here so no feature depends on another.
 */
export async function runMaintenance(now = new Date()): Promise<MaintenanceResult> {
  const swept = await sweep(now);
  const verdictsForgotten = await forgetUnreadableVerdicts();
  // Held spans first: a conversation quiet long enough to be forgotten is mapped before it goes.
  const otlpHeldSpansReleased = await releaseHeldOtlpSpans(now);
  const otlpSpansForgotten = await forgetQuietOtlpSpans(now);
  const questionJobsInterrupted = await failInterruptedQuestionJobs(now);
  const questionJobsForgotten = await forgetFinishedQuestionJobs(now);
  return {
    ...swept,
    verdictsForgotten,
    otlpSpansForgotten,
    otlpHeldSpansReleased,
    questionJobsForgotten,
    questionJobsInterrupted,
  };
}
