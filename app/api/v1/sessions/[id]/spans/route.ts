import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { apiRoute } from "@/lib/api/route";
import { SpanBatchResultSchema, SpanBatchSchema } from "@/lib/api/schemas";
import { decodeSpanBody } from "@/lib/api/span-body";
import { appendSpans } from "@/lib/server/ingest";

export const dynamic = "force-dynamic";

/** Appends a batch of spans in one transaction; idempotent per (seq, bytes). */
export const POST = apiRoute({
  permission: "spans:write",
  body: SpanBatchSchema,
  response: SpanBatchResultSchema,
  handler: async ({ caller, params, body }) => {
    const sessionId = params.id ?? "";
    if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
    const spans = body.spans.map((span, index) => ({
      seq: span.seq,
      kind: span.kind,
      role: span.role,
      toolName: span.toolName,
      toolInput: span.toolInput,
      toolAnnotations: span.toolAnnotations,
      exitCode: span.exitCode,
      cwd: span.cwd,
      occurredAt: span.occurredAt,
      body: decodeSpanBody(span.body, span.bodyEncoding, `spans.${index}.body`),
    }));
    return { spans: await appendSpans(caller.projectId, sessionId, spans) };
  },
});
