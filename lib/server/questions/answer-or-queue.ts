/**
 * The one way an evidence question is asked by a reader who waits (the API, the Evidence page, the
 * MCP tool): answered within a few seconds, or handed to a job whose progress, then answer, the
 * reader polls. Either way the answer is `presentAnswer`'s, so a job's stored answer has the shape
 * an answer given at once has.
 */
import {
  askEvidenceQuestion,
  type AskOptions,
  checkEvidenceQuestion,
  type EvidenceQueryInput,
  type QuestionProgress,
} from "./ask";
import { questionJobFor, questionJobJson, type QuestionJobJson } from "./jobs";
import { type AnswerPages, type EvidenceAnswerJson, presentAnswer, windowFor } from "./present";

/** How long a question may take before it goes on as a job: a request, a page load, a tool call. */
export const ANSWER_WITHIN_MS = 5_000;

export interface AskHow {
  /** The rows of each list to present. */
  pages?: AnswerPages;
  /** Go on as a job at once. The question is checked first: a bad one is still the caller's error, not a failed job. */
  async?: boolean;
  /** How long to wait for the answer before it goes on as a job (ANSWER_WITHIN_MS). */
  withinMs?: number;
  /** How verdicts judged afresh are kept when answered at once (a route hands them to run after its response). */
  keepVerdicts?: AskOptions["keepVerdicts"];
}

export type AnsweredOrQueued = { answer: EvidenceAnswerJson } | { job: QuestionJobJson };

/**
 * Answers within `withinMs`, or goes on as a job (its row written now) and returns that. A bad
 * question fails here, as it would at once: its checks come before any judging.
 */
export async function answerOrQueue(input: EvidenceQueryInput, requester: string, how: AskHow = {}): Promise<AnsweredOrQueued> {
  if (how.async) await checkEvidenceQuestion(input);
  // Progress so far, then into the job's row once it is written.
  let latest: QuestionProgress | null = null;
  let forward: ((p: QuestionProgress) => void) | null = null;
  const answer = answerWithPages(input, how.pages ?? {}, {
    // In a job asked for as one, the verdicts are kept before the answer is.
    ...(how.keepVerdicts && !how.async ? { keepVerdicts: how.keepVerdicts } : {}),
    onProgress: (p) => {
      latest = p;
      forward?.(p);
    },
  });
  // A failure after this point is the job's to record (questionJobFor), not an unhandled rejection.
  answer.catch(() => {});
  if (!how.async) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const inTime = await Promise.race([
      answer.then((presented) => ({ answer: presented })),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), how.withinMs ?? ANSWER_WITHIN_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (inTime) return inTime;
  }
  const { job, progress } = await questionJobFor(input.projectId, requester, answer, latest, () => latest);
  forward = progress;
  const reported = latest as QuestionProgress | null;
  if (reported) progress(reported); // what came while the row was being written
  return { job: questionJobJson(job) };
}

/**
 * The answer with these pages of its lists, asked keeping as many rows as the farther page reaches
 * (at least the default window). Stored verdicts are read at any window: only the sessions whose
 * stored lists hold too few for these pages are judged again.
 */
async function answerWithPages(input: EvidenceQueryInput, pages: AnswerPages, options: AskOptions): Promise<EvidenceAnswerJson> {
  const result = await askEvidenceQuestion(input, new Date(), { ...options, window: windowFor(pages) });
  return presentAnswer(result, pages);
}
