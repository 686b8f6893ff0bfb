import { NextResponse } from "next/server";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { parseOverviewView, projectOverview } from "@/lib/server/overview";

export const dynamic = "force-dynamic";

/**
 * A project's overview, which its first page polls: members only (401 signed out, 404 JSON for a
 * project the caller is not a member of, as for one that does not exist; 422 naming `range` for a
 * range the overview does not offer, or `from`/`to` for days it cannot chart).
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    const { project } = await authorizeMember((await params).slug, "read");
    const query = new URL(request.url).searchParams;
    const view = parseOverviewView({ range: query.get("range"), from: query.get("from"), to: query.get("to") }, new Date());
    return NextResponse.json(await projectOverview(project.id, view), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
