import { NextResponse } from "next/server";
import { readBodyBytes } from "@/lib/api/body";
import { AppError } from "@/lib/core/errors";
import { apiRoute } from "@/lib/api/route";
import { LIMITS } from "@/lib/api/schemas";
import { IMPORT_FORMATS, type ImportFormat } from "@/lib/importers/types";
import { importTranscriptFile } from "@/lib/server/imports";
import { startImportJob } from "@/lib/server/imports";

export const dynamic = "force-dynamic";

/** A transcript file in the body (format in ?format=, or detected). */
export const POST = apiRoute({
  permission: "imports:write",
  handler: async ({ caller, request }) => {
    const format = new URL(request.url).searchParams.get("format") ?? undefined;
    if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format)) {
      throw new AppError("VALIDATION_FAILED", `Unknown format "${format}"`, {
        fields: [{ path: "format", message: `one of ${IMPORT_FORMATS.join(", ")}` }],
      });
    }
    const ttlParam = new URL(request.url).searchParams.get("ttlFrom") ?? undefined;
    if (ttlParam !== undefined && ttlParam !== "received" && ttlParam !== "occurred") {
      throw new AppError("VALIDATION_FAILED", `Unknown ttlFrom "${ttlParam}"`, {
        fields: [{ path: "ttlFrom", message: "received (default) or occurred" }],
      });
    }
    const ttlFrom = ttlParam as "received" | "occurred" | undefined;
    const bytes = await readBodyBytes(request, LIMITS.maxImportBytes);
    if (bytes.byteLength === 0)
      throw new AppError("VALIDATION_FAILED", "The body is empty: send the transcript file", {
        fields: [{ path: "(body)", message: "empty" }],
      });
    // Overridable so that tests can exercise the background path with a small file.
    const syncLimit = Number(process.env.CUSTODIAN_SYNC_IMPORT_BYTES) || LIMITS.syncImportBytes;
    if (bytes.byteLength > syncLimit) {
      const job = await startImportJob(caller.projectId, bytes, format as ImportFormat | undefined, caller.label, ttlFrom);
      return NextResponse.json(
        { job: { id: job.id, status: job.status, byteLength: job.byteLength } },
        { status: 202, headers: { Location: `/api/v1/imports/${job.id}` } },
      );
    }
    return NextResponse.json(
      await importTranscriptFile(caller.projectId, bytes, {
        format: format as ImportFormat | undefined,
        requester: caller.label,
        ttlFrom,
      }),
    );
  },
});
