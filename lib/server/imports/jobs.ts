import { randomUUID } from "node:crypto";
import { AppError, toAppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { ImportFormat } from "@/lib/importers/types";
import { importTranscriptFile } from "./import-file";

/** Progress is written at most this often, so a fast import is not slowed by its own bookkeeping. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * Starts an import in the background of this server process and returns its job id at once.
 * The job row carries progress, then the outcome or the error.
 */
export async function startImportJob(
  projectId: string,
  bytes: Uint8Array,
  format: ImportFormat | undefined,
  requester: string,
  ttlFrom?: "received" | "occurred",
) {
  const job = await db().importJob.create({
    data: { id: randomUUID(), projectId, format: format ?? null, byteLength: bytes.byteLength, requester },
  });
  void runImportJob(job.id, projectId, bytes, format, requester, ttlFrom);
  return job;
}

async function runImportJob(
  id: string,
  projectId: string,
  bytes: Uint8Array,
  format: ImportFormat | undefined,
  requester: string,
  ttlFrom: "received" | "occurred" | undefined,
) {
  let lastWrite = 0;
  try {
    const outcome = await importTranscriptFile(projectId, bytes, {
      format,
      requester,
      ttlFrom,
      onProgress: ({ spansDone, spansTotal }) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_INTERVAL_MS) return;
        lastWrite = now;
        void db()
          .importJob.update({ where: { id }, data: { spansDone, spansTotal } })
          .catch(() => {});
      },
    });
    await db().importJob.update({
      where: { id },
      data: {
        status: "DONE",
        format: outcome.format,
        spansDone: outcome.spans,
        spansTotal: outcome.spans,
        outcome: outcome as unknown as Prisma.InputJsonValue,
      },
    });
  } catch (error) {
    const appError = toAppError(error);
    if (!(error instanceof AppError)) console.error("Import job failed", error);
    await db()
      .importJob.update({ where: { id }, data: { status: "FAILED", error: appError.message } })
      .catch(() => {});
  }
}

export async function getImportJob(projectId: string, id: string) {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", "Import job not found");
  const job = await db().importJob.findFirst({ where: { id, projectId } });
  if (!job) throw new AppError("NOT_FOUND", "Import job not found");
  return job;
}

/** A running job writes progress at least this often; one silent for longer has lost its server. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Jobs whose server stopped cannot finish: say so instead of spinning forever. Only jobs silent for
 * a while, so a job another live server is running is left alone.
 */
export async function failInterruptedImports(now = new Date()): Promise<number> {
  const { count } = await db().importJob.updateMany({
    where: { status: "RUNNING", updatedAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } },
    data: { status: "FAILED", error: "Interrupted: its server stopped; import the file again (imports are idempotent)" },
  });
  return count;
}
