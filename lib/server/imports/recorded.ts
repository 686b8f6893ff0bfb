import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { type ImportOutcome, importTranscriptFile } from "./import-file";
import { failJob, finishJob } from "./jobs";

/**
 * A file imported within its request, kept as an import row like a background job's: the Imports
 * page lists every upload, small or large, with its outcome (its sessions and record accounting) or
 * the reason it was refused. The row is written before the import runs, so a server that stops
 * midway leaves a RUNNING row that failInterruptedImports ends.
 */
export async function importRecorded(
  projectId: string,
  bytes: Uint8Array,
  options: { format?: ImportFormat; ttlFrom?: "received" | "occurred"; requester: string },
): Promise<{ importId: string; outcome: ImportOutcome }> {
  const id = randomUUID();
  await db().importJob.create({
    data: { id, projectId, format: options.format ?? null, byteLength: bytes.byteLength, requester: options.requester },
  });
  let outcome: ImportOutcome;
  try {
    outcome = await importTranscriptFile(projectId, bytes, options);
  } catch (error) {
    await failJob(id, error);
    throw error;
  }
  await finishJob(id, outcome);
  return { importId: id, outcome };
}
