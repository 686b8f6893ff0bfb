import { originalResponse } from "@/lib/api/original-response";
import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { heldOriginal } from "@/lib/server/provenance";

export const dynamic = "force-dynamic";

/**
 * The span page's link to all of an original's bytes (the page shows an excerpt): streamed as the
 * API streams them, as a download, never as a page. Members only, checked before anything is read
 * (404 for a project the caller is not a member of, and for a span of another project).
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string; id: string }> }) {
  try {
    const { slug, id } = await params;
    const { project } = await authorizeMember(slug, "read");
    const original = await heldOriginal(project.id, id);
    return originalResponse(original, request.headers.get("range"), {
      "Content-Disposition": `attachment; filename="span-${original.spanId}.bin"`,
    });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
