import { apiRoute, IdParams } from "@/lib/api/route";
import { SpanListQuerySchema, SpanListSchema } from "@/lib/api/read-schemas";
import { SpanBatchResultSchema, SpanBatchSchema } from "@/lib/api/schemas";
import { listSessionSpans } from "@/lib/server/dashboard";
import { decodeSpanBody } from "@/lib/api/span-body";
import { appendSpans } from "@/lib/server/ingest";
import { otherMethods } from "@/lib/api/respond";

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
      outcome: span.outcome,
      agentId: span.agentId,
      agentType: span.agentType,
      cwd: span.cwd,
      occurredAt: span.occurredAt,
      body: decodeSpanBody(span.body, span.bodyEncoding, `spans.${index}.body`),
    }));
    return { spans: await appendSpans(caller.projectId, sessionId, spans) };
  },
});

/** The session's spans in transcript order, a page at a time, each with its status and its call's outcome. */
export const GET = apiRoute({
  permission: "read",
  params: IdParams,
  query: SpanListQuerySchema,
  response: SpanListSchema,
  handler: async ({ caller, params, query }) => listSessionSpans(caller.projectId, params.id, query),
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
