import { NextResponse } from "next/server";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { readQuestionJob } from "@/lib/server/questions";

export const dynamic = "force-dynamic";

/**
 * An evidence question the Evidence page handed to a job: its progress, then its answer or error.
 * Members only, checked first (401 signed out; 404 JSON for a project the caller is not a member
 * of, and for a job of another project, as for one that does not exist).
 */
export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; id: string }> }) {
  try {
    const { slug, id } = await params;
    const { project } = await authorizeMember(slug, "read");
    return NextResponse.json(await readQuestionJob(project.id, id), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
