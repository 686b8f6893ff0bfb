import { NextResponse } from "next/server";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { parseOverviewRange, projectOverview } from "@/lib/server/overview";

export const dynamic = "force-dynamic";

/**
 * A project's overview, which its first page polls: members only (401 signed out, 404 JSON for a
 * project the caller is not a member of, as for one that does not exist; 422 naming `range` for a
 * range the overview does not offer).
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    const { project } = await authorizeMember((await params).slug, "read");
    const range = parseOverviewRange(new URL(request.url).searchParams.get("range"));
    return NextResponse.json(await projectOverview(project.id, { range }), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
