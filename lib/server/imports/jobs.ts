import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { env } from "@/lib/core/env";
import { AppError, toAppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { TranscriptBytes } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { fileSource } from "./file-source";
import { type ImportOutcome, importTranscriptFile } from "./import-file";

/** Progress is written at most this often, so a fast import is not slowed by its own bookkeeping. */
const PROGRESS_INTERVAL_MS = 500;

/** Imports that run at once in one server; the rest wait their turn, in order. */
export const MAX_RUNNING_IMPORTS = 2;

interface Waiting {
  id: string;
  projectId: string;
  run: () => Promise<void>;
}

/**
 * This process's imports: how many run, those waiting (first first), and the places reserved for
 * uploads still arriving (a file being received already takes room on disk).
 */
interface ImportQueue {
  running: number;
  waiting: Waiting[];
  reserved: Map<string, number>;
}
const queue = globalThis as unknown as { custodianImports?: ImportQueue };
const imports = (): ImportQueue => {
  queue.custodianImports ??= { running: 0, waiting: [], reserved: new Map() };
  // A queue made by an earlier version of this module (development reloads) has no reservations.
  queue.custodianImports.reserved ??= new Map();
  return queue.custodianImports;
};

/** How long a refused upload is told to wait: imports of the largest files take minutes. */
export const QUEUE_FULL_RETRY_SECONDS = 60;

/** A place in the queue, held from before the upload is read until its job waits (or it is given back). */
export interface ImportSlot {
  projectId: string;
  release(): void;
}

/**
 * Reserves a place in this server's import queue for a project, or refuses with 429
 * IMPORT_QUEUE_FULL (and Retry-After) when the project's waiting imports, or all of them, are at
 * their limit (CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT, CUSTODIAN_IMPORT_QUEUE_LIMIT). Taken before
 * the file is read, so a refused upload writes nothing, and checked and taken in one step, so
 * concurrent uploads cannot all pass a count read before any of them was counted.
 */
export function reserveImportSlot(projectId: string): ImportSlot {
  const state = imports();
  const { CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT: perProject, CUSTODIAN_IMPORT_QUEUE_LIMIT: overall } = env();
  const reservedAll = [...state.reserved.values()].reduce((a, b) => a + b, 0);
  const project = state.waiting.filter((w) => w.projectId === projectId).length + (state.reserved.get(projectId) ?? 0);
  const all = state.waiting.length + reservedAll;
  if (project >= perProject || all >= overall) {
    const which = project >= perProject ? `this project's ${perProject}` : `this server's ${overall}`;
    throw new AppError("IMPORT_QUEUE_FULL", `The import queue is full (${which} waiting imports): try again later`, {
      headers: { "Retry-After": String(QUEUE_FULL_RETRY_SECONDS) },
      details: { waitingInProject: project, waiting: all, projectLimit: perProject, limit: overall },
    });
  }
  state.reserved.set(projectId, (state.reserved.get(projectId) ?? 0) + 1);
  let held = true;
  return {
    projectId,
    release() {
      if (!held) return;
      held = false;
      const left = (state.reserved.get(projectId) ?? 1) - 1;
      if (left > 0) state.reserved.set(projectId, left);
      else state.reserved.delete(projectId);
    },
  };
}

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
 * most MAX_RUNNING_IMPORTS run at a time, the others wait in order, up to the queue's limits (a
 * slot reserved before the upload was read, or one reserved here; see reserveImportSlot). The file is read from its
 * temporary file only when its turn comes, a chunk at a time, and removed when the job ends. The job row
 * carries progress, then the outcome or the error.
 */
export async function startImportJob(
  projectId: string,
  file: { file: string; byteLength: number } | Uint8Array,
  format: ImportFormat | undefined,
  requester: string,
  ttlFrom?: "received" | "occurred",
  reserved?: ImportSlot,
) {
  const slot = reserved ?? reserveImportSlot(projectId);
  const byteLength = file instanceof Uint8Array ? file.byteLength : file.byteLength;
  let job: Awaited<ReturnType<ReturnType<typeof db>["importJob"]["create"]>>;
  try {
    job = await db().importJob.create({
      data: { id: randomUUID(), projectId, format: format ?? null, byteLength, requester },
    });
  } catch (error) {
    slot.release();
    throw error;
  }
  const heartbeat = setInterval(() => {
    void db()
      .importJob.update({ where: { id: job.id }, data: { updatedAt: new Date() } })
      .catch(() => {});
  }, QUEUED_HEARTBEAT_MS);
  heartbeat.unref?.();
  // The reservation becomes the waiting job, in one step: the count never drops in between.
  slot.release();
  imports().waiting.push({
    id: job.id,
    projectId,
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

/** A job ends DONE with its outcome: its sessions and record accounting, for the Imports page. */
export async function finishJob(id: string, outcome: ImportOutcome) {
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
}

/** A job ends FAILED with the error's message (an unexpected error is logged, its internals never shown). */
export async function failJob(id: string, error: unknown) {
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
    await finishJob(id, outcome);
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
