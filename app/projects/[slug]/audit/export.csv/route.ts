import { errorResponse, otherMethods } from "@/lib/api/respond";
import { authorizeMember } from "@/lib/auth/project-access";
import { auditCsvChunks, auditCsvFileName, parseAuditQuery, recordAudit } from "@/lib/server/audit";

export const dynamic = "force-dynamic";

/**
 * The project's audit log as CSV, filtered as the page is (the same search params), every
 * matching event rather than one page: streamed a thousand rows at a time as they are read.
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }) {
  try {
    // A non-member gets 404, as for a project that does not exist, before anything is read.
    const { project, actor } = await authorizeMember((await params).slug, "read");
    const query = parseAuditQuery(new URL(request.url).searchParams);
    // Who took the log out, and which part of it, is written before the first byte leaves.
    const { page: _page, ...chosen } = query;
    const filters = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
    await recordAudit({
      projectId: project.id,
      actor,
      act: "audit.export",
      targetType: "project",
      targetId: project.id,
      after: { format: "csv", filters },
    });
    const chunks = auditCsvChunks(project.id, project.slug, query);
    // The first chunk (with the header) is read before answering: a bad filter or a database
    // error is still a clean error response then, not a cut-off file.
    const first = await chunks.next();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(encoder.encode(first.value));
      },
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${auditCsvFileName(project.slug)}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
