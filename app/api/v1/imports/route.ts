import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute } from "@/lib/api/route";
import { IMPORT_FORMATS } from "@/lib/importers/shared/types";
import { acceptImport } from "@/lib/server/imports";
import { importLimits } from "@/lib/api/import-limits";
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
    const declared = Number(request.headers.get("content-length") ?? Number.NaN);
    const accepted = await acceptImport(
      caller.projectId,
      request.body,
      Number.isFinite(declared) ? declared : undefined,
      importLimits(),
      {
        format: query.format,
        ttlFrom: query.ttlFrom,
        requester: caller.label,
      },
    );
    // The outcome, with the import's id: GET /api/v1/imports/{id} reads it back, as for a job.
    if (accepted.kind === "imported") return NextResponse.json({ ...accepted.outcome, importId: accepted.importId });
    return NextResponse.json({ job: accepted.job }, { status: 202, headers: { Location: `/api/v1/imports/${accepted.job.id}` } });
  },
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
