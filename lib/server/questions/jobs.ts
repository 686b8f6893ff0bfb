/**
 * Evidence questions that take longer than a request should: answered in the background of this
 * server process, with their progress and then their answer (as the API renders it) in question_job.
 */
import { randomUUID } from "node:crypto";
import { AppError, toAppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { QuestionProgress } from "./ask";

/** Progress is written at most this often. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * A job for a question already being answered (`answer`, which reports progress through the
 * returned `progress`): its row now, its answer or error when `answer` settles.
 */
export async function questionJobFor(
  projectId: string,
  requester: string,
  answer: Promise<unknown>,
  progressSoFar: QuestionProgress | null,
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
  const progress = (p: QuestionProgress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_INTERVAL_MS) return;
    lastWrite = now;
    void db()
      .questionJob.update({ where: { id: job.id }, data: progressData(p) })
      .catch(() => {});
  };
  void answer.then(
    (result) =>
      db()
        .questionJob.update({ where: { id: job.id }, data: { status: "DONE", answer: result as Prisma.InputJsonValue } })
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

function progressData(p: QuestionProgress) {
  return { candidateSpans: p.candidateSpans, sessionsDone: p.sessionsDone, sessionsTotal: p.sessionsTotal };
}

export async function getQuestionJob(projectId: string, id: string) {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "Question job not found");
  const job = await db().questionJob.findFirst({ where: { id, projectId } });
  if (!job) throw new AppError("NOT_FOUND", "Question job not found");
  return job;
}
