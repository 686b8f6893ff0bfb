import { NextResponse } from "next/server";
import { importLimits } from "@/lib/api/import-limits";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { requireSameOrigin } from "@/lib/auth/define-action";
import { authorizeMember } from "@/lib/auth/project-access";
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
      ? NextResponse.json({ outcome: accepted.outcome })
      : NextResponse.json({ job: accepted.job }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
