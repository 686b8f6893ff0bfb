import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { AppError, toAppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { TranscriptBytes } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { fileSource } from "./file-source";
import { importTranscriptFile } from "./import-file";

/** Progress is written at most this often, so a fast import is not slowed by its own bookkeeping. */
const PROGRESS_INTERVAL_MS = 500;

/** Imports that run at once in one server; the rest wait their turn, in order. */
export const MAX_RUNNING_IMPORTS = 2;

interface Waiting {
  id: string;
  run: () => Promise<void>;
}

/** This process's imports: how many run, and those waiting, first first. */
const queue = globalThis as unknown as { custodianImports?: { running: number; waiting: Waiting[] } };
const imports = () => (queue.custodianImports ??= { running: 0, waiting: [] });

function startNext() {
  const state = imports();
  while (state.running < MAX_RUNNING_IMPORTS && state.waiting.length > 0) {
    const next = state.waiting.shift()!;
    state.running++;
    void next.run().finally(() => {
      state.running--;
      startNext();
    });
  }
}

/** Where a job waits in this server's queue (1 = next), or null when it is not waiting here. */
export function queuePosition(id: string): number | null {
  const at = imports().waiting.findIndex((w) => w.id === id);
  return at < 0 ? null : at + 1;
}

/** A waiting job's row is touched this often, so it is not taken for one whose server stopped. */
const QUEUED_HEARTBEAT_MS = 60_000;

/**
 * Starts an import in the background of this server process and returns its job id at once: at
 * most MAX_RUNNING_IMPORTS run at a time, the others wait in order. The file is read from its
 * temporary file only when its turn comes, a chunk at a time, and removed when the job ends. The job row
 * carries progress, then the outcome or the error.
 */
export async function startImportJob(
  projectId: string,
  file: { file: string; byteLength: number } | Uint8Array,
  format: ImportFormat | undefined,
  requester: string,
  ttlFrom?: "received" | "occurred",
) {
  const byteLength = file instanceof Uint8Array ? file.byteLength : file.byteLength;
  const job = await db().importJob.create({
    data: { id: randomUUID(), projectId, format: format ?? null, byteLength, requester },
  });
  const heartbeat = setInterval(() => {
    void db()
      .importJob.update({ where: { id: job.id }, data: { updatedAt: new Date() } })
      .catch(() => {});
  }, QUEUED_HEARTBEAT_MS);
  heartbeat.unref?.();
  imports().waiting.push({
    id: job.id,
    run: async () => {
      clearInterval(heartbeat);
      try {
        // A spooled file is read a chunk at a time as the importer goes, never held whole.
        const input = file instanceof Uint8Array ? file : fileSource(file.file, file.byteLength);
        await runImportJob(job.id, projectId, input, format, requester, ttlFrom);
      } catch (error) {
        await failJob(job.id, error);
      } finally {
        if (!(file instanceof Uint8Array)) await rm(file.file, { force: true }).catch(() => {});
      }
    },
  });
  startNext();
  return job;
}

async function failJob(id: string, error: unknown) {
  const appError = toAppError(error);
  if (!(error instanceof AppError)) console.error("Import job failed", error);
  await db()
    .importJob.update({ where: { id }, data: { status: "FAILED", error: appError.message } })
    .catch(() => {});
}

async function runImportJob(
  id: string,
  projectId: string,
  bytes: TranscriptBytes,
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
    await failJob(id, error);
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
