import { AppError } from "@/lib/core/errors";
import type { ImportFormat } from "@/lib/importers/shared/types";
import type { ImportOutcome } from "./import-file";
import { type ImportSlot, queuePosition, reserveImportSlot, startImportJob } from "./jobs";
import { importRecorded } from "./recorded";
import { receiveFile } from "./spool";

export type AcceptedImport =
  | { kind: "imported"; importId: string; outcome: ImportOutcome }
  | { kind: "queued"; job: { id: string; status: string; byteLength: number; queuePosition: number | null } };

/**
 * A transcript file as a request sends it (the API with a key, the dashboard's import form with a
 * session): read once, imported within the request while small, else handed to the background
 * queue; either way it is listed among the project's imports. A file that may go to the queue takes its place there before it is read, so a full queue
 * refuses it (429 IMPORT_QUEUE_FULL) without writing it to disk, and an accepted one keeps its place.
 */
export async function acceptImport(
  projectId: string,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | undefined,
  limits: { maxBytes: number; syncBytes: number },
  options: { format?: ImportFormat; ttlFrom?: "received" | "occurred"; requester: string },
): Promise<AcceptedImport> {
  const slot: ImportSlot | null =
    declaredLength !== undefined && declaredLength <= limits.syncBytes ? null : reserveImportSlot(projectId);
  let received: Awaited<ReturnType<typeof receiveFile>>;
  try {
    received = await receiveFile(body, declaredLength, limits.maxBytes, limits.syncBytes);
  } catch (error) {
    slot?.release();
    throw error;
  }
  if (received.kind === "spooled") {
    const job = await startImportJob(projectId, received, options.format, options.requester, options.ttlFrom, slot ?? undefined);
    const position = queuePosition(job.id);
    return {
      kind: "queued",
      job: { id: job.id, status: position === null ? job.status : "QUEUED", byteLength: job.byteLength, queuePosition: position },
    };
  }
  slot?.release();
  if (received.bytes.byteLength === 0)
    throw new AppError("VALIDATION_FAILED", "The body is empty: send the transcript file", {
      fields: [{ path: "(body)", message: "empty" }],
    });
  const recorded = await importRecorded(projectId, received.bytes, {
    format: options.format,
    requester: options.requester,
    ttlFrom: options.ttlFrom,
  });
  return { kind: "imported", ...recorded };
}
