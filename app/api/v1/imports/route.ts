import { env } from "@/lib/core/env";
import { NextResponse } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { apiRoute } from "@/lib/api/route";
import { LIMITS } from "@/lib/api/schemas";
import { IMPORT_FORMATS } from "@/lib/importers/types";
import { importTranscriptFile } from "@/lib/server/imports";
import { type ImportSlot, queuePosition, receiveFile, reserveImportSlot, startImportJob } from "@/lib/server/imports";
import { otherMethods } from "@/lib/api/respond";

export const dynamic = "force-dynamic";

/** A transcript file in the body (format in ?format=, or detected). */
export const POST = apiRoute({
  permission: "imports:write",
  query: z.object({
    format: z.enum(IMPORT_FORMATS, { error: `one of ${IMPORT_FORMATS.join(", ")}` }).optional(),
    ttlFrom: z.enum(["received", "occurred"], { error: "received (default) or occurred" }).optional(),
  }),
  handler: async ({ caller, request, query }) => {
    const { format, ttlFrom } = query;
    // Overridable so that tests can exercise the background path with a small file.
    const syncLimit = env().CUSTODIAN_SYNC_IMPORT_BYTES ?? LIMITS.syncImportBytes;
    const declared = Number(request.headers.get("content-length") ?? Number.NaN);
    const length = Number.isFinite(declared) ? declared : undefined;
    // A file that may go to the background queue takes its place there before it is read: a full
    // queue refuses it (429) without writing it to disk; an accepted one keeps its place.
    const slot: ImportSlot | null = length !== undefined && length <= syncLimit ? null : reserveImportSlot(caller.projectId);
    // Read once: a small file into memory, a larger one to a temporary file as it arrives.
    let received: Awaited<ReturnType<typeof receiveFile>>;
    try {
      received = await receiveFile(request.body, length, LIMITS.maxImportBytes, syncLimit);
    } catch (error) {
      slot?.release();
      throw error;
    }
    if (received.kind === "memory") slot?.release();
    if (received.kind === "memory" && received.bytes.byteLength === 0)
      throw new AppError("VALIDATION_FAILED", "The body is empty: send the transcript file", {
        fields: [{ path: "(body)", message: "empty" }],
      });
    if (received.kind === "spooled") {
      const job = await startImportJob(caller.projectId, received, format, caller.label, ttlFrom, slot ?? undefined);
      const position = queuePosition(job.id);
      return NextResponse.json(
        {
          job: {
            id: job.id,
            status: position === null ? job.status : "QUEUED",
            byteLength: job.byteLength,
            queuePosition: position,
          },
        },
        { status: 202, headers: { Location: `/api/v1/imports/${job.id}` } },
      );
    }
    const bytes = received.bytes;
    return NextResponse.json(
      await importTranscriptFile(caller.projectId, bytes, {
        format,
        requester: caller.label,
        ttlFrom,
      }),
    );
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
