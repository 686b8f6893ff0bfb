import { NextResponse } from "next/server";
import { importLimits } from "@/lib/api/import-limits";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { requireSameOrigin } from "@/lib/auth/define-action";
import { authorizeMember } from "@/lib/auth/project-access";
import { importListJson, listImportPage } from "@/lib/server/dashboard";
import { acceptImport } from "@/lib/server/imports";

export const dynamic = "force-dynamic";

/**
 * The Imports page's upload: a transcript file in the body, imported as POST /api/v1/imports does,
 * for a signed-in member who may import (the same-origin check first: a form on another site cannot
 * import in a member's name). 200 with the outcome, 202 with the job, 429 IMPORT_QUEUE_FULL with
 * Retry-After when the queue is full.
 */
export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    requireSameOrigin(request.headers);
    const { project, actor } = await authorizeMember((await params).slug, "imports:write");
    const declared = Number(request.headers.get("content-length") ?? Number.NaN);
    const accepted = await acceptImport(
      project.id,
      request.body,
      Number.isFinite(declared) ? declared : undefined,
      importLimits(),
      {
        requester: actor.label,
      },
    );
    return accepted.kind === "imported"
      ? NextResponse.json({ outcome: accepted.outcome, importId: accepted.importId })
      : NextResponse.json({ job: accepted.job }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * The Imports page's list as JSON (the same page, filter and order as the page's URL), which the
 * page polls while an import runs: members only (401 signed out, 404 for a project the caller is
 * not a member of, as for one that does not exist).
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    const { project } = await authorizeMember((await params).slug, "read");
    const page = await listImportPage(project.id, new URL(request.url).searchParams);
    return NextResponse.json(importListJson(page), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
