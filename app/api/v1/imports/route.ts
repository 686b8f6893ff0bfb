import { env } from "@/lib/core/env";
import { NextResponse } from "next/server";
import { z } from "zod";
import { readBodyBytes } from "@/lib/api/body";
import { AppError } from "@/lib/core/errors";
import { apiRoute } from "@/lib/api/route";
import { LIMITS } from "@/lib/api/schemas";
import { IMPORT_FORMATS } from "@/lib/importers/types";
import { importTranscriptFile } from "@/lib/server/imports";
import { startImportJob } from "@/lib/server/imports";
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
    const bytes = await readBodyBytes(request, LIMITS.maxImportBytes);
    if (bytes.byteLength === 0)
      throw new AppError("VALIDATION_FAILED", "The body is empty: send the transcript file", {
        fields: [{ path: "(body)", message: "empty" }],
      });
    // Overridable so that tests can exercise the background path with a small file.
    const syncLimit = env().CUSTODIAN_SYNC_IMPORT_BYTES ?? LIMITS.syncImportBytes;
    if (bytes.byteLength > syncLimit) {
      const job = await startImportJob(caller.projectId, bytes, format, caller.label, ttlFrom);
      return NextResponse.json(
        { job: { id: job.id, status: job.status, byteLength: job.byteLength } },
        { status: 202, headers: { Location: `/api/v1/imports/${job.id}` } },
      );
    }
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
