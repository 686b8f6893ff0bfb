/**
 * Evidence questions that take longer than a request should: answered in the background of this
 * server process, with their progress and then their answer (as `presentAnswer` presents it) in
 * question_job; and a job as every reader polls it (`questionJobJson`).
 */
import { randomUUID } from "node:crypto";
import { AppError, toAppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma, QuestionJob } from "@/lib/db/generated/client";
import type { QuestionProgress } from "./ask";
import { type EvidenceAnswerJson, isPresentedAnswer } from "./present";

/** Progress is written at most this often. */
const PROGRESS_INTERVAL_MS = 500;

/** A running job touches its row at least this often, even while its progress stands still. */
export const QUESTION_JOB_HEARTBEAT_MS = 30_000;

/**
 * A running job silent for longer than this has lost its server (three heartbeats missed). Only
 * silent ones are closed: a job another live server is answering keeps beating.
 */
export const QUESTION_JOB_ABANDONED_AFTER_MS = 3 * QUESTION_JOB_HEARTBEAT_MS;

/** Finished jobs are kept this long for whoever asked to read their answer, then forgotten. */
const KEEP_FINISHED_MS = 24 * 60 * 60_000;

export const INTERRUPTED_QUESTION_MESSAGE = "The server stopped while it was judging; ask again";

/** The error of a job whose answer was kept in a form from before there was one presenter. */
export const OUTDATED_ANSWER_MESSAGE = "This answer was kept in an earlier form that can no longer be read; ask again";

/** A question job as the API, the Evidence page and the MCP tool poll it. */
export interface QuestionJobJson {
  id: string;
  status: "RUNNING" | "DONE" | "FAILED";
  /** Candidate spans judged so far, and sessions answered of those in scope. */
  candidateSpans: number;
  sessionsDone: number;
  sessionsTotal: number;
  /** When DONE, the answer as an answer given at once presents it; null while running, on failure, or when outdated. */
  answer: EvidenceAnswerJson | null;
  /** Why a FAILED job has no answer, or a DONE one no longer has one. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A job for a question already being answered (`answer`, which reports progress through the
 * returned `progress`): its row now, its answer or error when `answer` settles. `lastProgress`, when
 * given, tells the progress last reported wherever it went (some may come before `progress` is
 * handed over), for the finished row's counts.
 */
export async function questionJobFor(
  projectId: string,
  requester: string,
  answer: Promise<EvidenceAnswerJson>,
  progressSoFar: QuestionProgress | null,
  lastProgress?: () => QuestionProgress | null,
) {
  const job = await db().questionJob.create({
    data: {
      id: randomUUID(),
      projectId,
      requester,
      ...(progressSoFar ? progressData(progressSoFar) : {}),
    },
  });
  let lastWrite = 0;
  let latest = progressSoFar;
  const progress = (p: QuestionProgress) => {
    latest = p;
    const now = Date.now();
    if (now - lastWrite < PROGRESS_INTERVAL_MS) return;
    lastWrite = now;
    // Only while running: a write that lands after the answer must not undo its final counts.
    void db()
      .questionJob.updateMany({ where: { id: job.id, status: "RUNNING" }, data: progressData(p) })
      .catch(() => {});
  };
  const heartbeat = setInterval(() => {
    void db()
      .questionJob.updateMany({ where: { id: job.id, status: "RUNNING" }, data: { updatedAt: new Date() } })
      .catch(() => {});
  }, QUESTION_JOB_HEARTBEAT_MS);
  heartbeat.unref();
  void answer
    .finally(() => clearInterval(heartbeat))
    .then(
      (result) =>
        db()
          .questionJob.update({
            where: { id: job.id },
            data: {
              status: "DONE",
              answer: result as unknown as Prisma.InputJsonValue,
              ...finalProgress(lastProgress?.() ?? latest),
            },
          })
          .catch(() => {}),
      (error: unknown) => {
        const appError = toAppError(error);
        if (!(error instanceof AppError)) console.error("Question job failed", error);
        return db()
          .questionJob.update({ where: { id: job.id }, data: { status: "FAILED", error: appError.message } })
          .catch(() => {});
      },
    );
  return { job, progress };
}

/** Its last progress (writes are spaced out), with every session in scope answered. */
function finalProgress(p: QuestionProgress | null) {
  return p ? { ...progressData(p), sessionsDone: p.sessionsTotal } : {};
}

function progressData(p: QuestionProgress) {
  return { candidateSpans: p.candidateSpans, sessionsDone: p.sessionsDone, sessionsTotal: p.sessionsTotal };
}

/** A project's question job as it is polled (NOT_FOUND for another project's, or none). */
export async function readQuestionJob(projectId: string, id: string): Promise<QuestionJobJson> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "Question job not found");
  const job = await db().questionJob.findFirst({ where: { id, projectId } });
  if (!job) throw new AppError("NOT_FOUND", "Question job not found");
  return questionJobJson(job);
}

/**
 * A job row as it is polled. An answer stored in an earlier shape reads as done without it, with
 * an error asking to ask again: its reader is told, not handed a shape it cannot read.
 */
export function questionJobJson(job: QuestionJob): QuestionJobJson {
  const presented = isPresentedAnswer(job.answer) ? job.answer : null;
  const outdated = job.status === "DONE" && presented === null;
  return {
    id: job.id,
    status: job.status,
    candidateSpans: job.candidateSpans,
    sessionsDone: job.sessionsDone,
    sessionsTotal: job.sessionsTotal,
    answer: presented,
    error: outdated ? OUTDATED_ANSWER_MESSAGE : job.error,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/**
 * Jobs whose server stopped while they were being judged cannot finish: say so, rather than leave
 * them running forever for whoever polls them.
 */
export async function failInterruptedQuestionJobs(now = new Date()): Promise<number> {
  const { count } = await db().questionJob.updateMany({
    where: { status: "RUNNING", updatedAt: { lt: new Date(now.getTime() - QUESTION_JOB_ABANDONED_AFTER_MS) } },
    // Failed now: kept a day from now for whoever polls it, like any finished job.
    data: { status: "FAILED", error: INTERRUPTED_QUESTION_MESSAGE, updatedAt: now },
  });
  return count;
}

/** Finished jobs (answered or failed) more than a day ago: their answers were there to be read. */
export async function forgetFinishedQuestionJobs(now = new Date()): Promise<number> {
  const { count } = await db().questionJob.deleteMany({
    where: { status: { in: ["DONE", "FAILED"] }, updatedAt: { lt: new Date(now.getTime() - KEEP_FINISHED_MS) } },
  });
  return count;
}
