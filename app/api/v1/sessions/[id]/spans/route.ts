import { apiRoute, IdParams } from "@/lib/api/route";
import { SpanBatchResultSchema, SpanBatchSchema } from "@/lib/api/schemas";
import { decodeSpanBody } from "@/lib/api/span-body";
import { appendSpans } from "@/lib/server/ingest";

export const dynamic = "force-dynamic";

/** Appends a batch of spans in one transaction; idempotent per (seq, bytes). */
export const POST = apiRoute({
  permission: "spans:write",
  params: IdParams,
  body: SpanBatchSchema,
  response: SpanBatchResultSchema,
  handler: async ({ caller, params, body }) => {
    const sessionId = params.id;
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
