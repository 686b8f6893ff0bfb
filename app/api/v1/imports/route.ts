import { env } from "@/lib/core/env";
import { NextResponse } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { apiRoute } from "@/lib/api/route";
import { LIMITS } from "@/lib/api/schemas";
import { IMPORT_FORMATS } from "@/lib/importers/shared/types";
import { importTranscriptFile } from "@/lib/server/imports";
import { queuePosition, receiveFile, startImportJob } from "@/lib/server/imports";
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
    // Read once: a small file into memory, a larger one to a temporary file as it arrives.
    const received = await receiveFile(
      request.body,
      Number.isFinite(declared) ? declared : undefined,
      LIMITS.maxImportBytes,
      syncLimit,
    );
    if (received.kind === "memory" && received.bytes.byteLength === 0)
      throw new AppError("VALIDATION_FAILED", "The body is empty: send the transcript file", {
        fields: [{ path: "(body)", message: "empty" }],
      });
    if (received.kind === "spooled") {
      const job = await startImportJob(caller.projectId, received, format, caller.label, ttlFrom);
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
