import { NextResponse } from "next/server";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { refusalFeed } from "@/lib/server/dashboard";

export const dynamic = "force-dynamic";

/**
 * A project's live refusal feed, which its Refusals page polls: members only (401 signed out, 404
 * JSON for a project the caller is not a member of, as for one that does not exist).
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    const { project } = await authorizeMember((await params).slug, "read");
    const query = Object.fromEntries(new URL(request.url).searchParams);
    return NextResponse.json(await refusalFeed(project.id, query), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
