import { z } from "zod";
import { otherMethods } from "@/lib/api/respond";
import { apiRoute } from "@/lib/api/route";
import { LIMITS, SessionCreateSchema, SpanInputSchema } from "@/lib/api/schemas";
import { decodeSpanBody } from "@/lib/api/span-body";
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import { syncHookTranscript } from "@/lib/server/integrations";

export const dynamic = "force-dynamic";

const HookSyncSchema = z
  .object({
    session: SessionCreateSchema,
    spans: z
      .array(SpanInputSchema.extend({ sourceLine: z.number().int().min(0).optional() }))
      .max(LIMITS.maxSpansPerBatch)
      .default([]),
    skipped: z
      .array(z.object({ line: z.number().int().min(0), reason: z.string().min(1).max(2000) }).strict())
      .max(LIMITS.maxSpansPerBatch)
      .default([]),
    linesRead: z.number().int().min(0).optional(),
    compactions: z
      .array(
        z
          .object({
            summarySeq: z.number().int().min(0),
            replacedSeqs: z.array(z.number().int().min(0)).max(LIMITS.maxSpansPerGateCall),
            occurredAt: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
          })
          .strict(),
      )
      .max(1000)
      .default([]),
    gate: z.boolean().default(false),
    ledgerLimit: z.number().int().min(1).max(500).optional(),
    serverUrl: z.url().max(2000).optional(),
    runtimeSummary: z
      .object({
        text: z.string().min(1).max(MAX_SPAN_BODY_BYTES),
        occurredAt: z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
        replacedSeqs: z.array(z.number().int().min(0)).max(LIMITS.maxSpansPerGateCall).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * A compaction hook's round trip: the transcript's spans it has not sent yet, the compactions it
 * records (linked as observed), and, when asked, the gate's view of the verbatim spans and the
 * evidence ledger.
 */
export const POST = apiRoute({
  permission: "spans:write",
  body: HookSyncSchema,
  handler: async ({ caller, body }) =>
    syncHookTranscript(
      caller.projectId,
      {
        session: body.session,
        spans: body.spans.map((span, index) => ({
          ...span,
          body: decodeSpanBody(span.body, span.bodyEncoding, `spans.${index}.body`),
        })),
        skipped: body.skipped,
        ...(body.linesRead !== undefined ? { linesRead: body.linesRead } : {}),
        compactions: body.compactions,
        gate: body.gate,
        ledgerLimit: body.ledgerLimit,
        serverUrl: body.serverUrl,
        ...(body.runtimeSummary ? { runtimeSummary: body.runtimeSummary } : {}),
      },
      caller.label,
    ),
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
