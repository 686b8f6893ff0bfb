/**
 * What a runtime hook sends to `/api/v1/hooks/sync` (and the watcher hands the same use case
 * directly): the spans it has not sent yet, the records it skipped, the compactions it read, and
 * what it wants back.
 */
import { z } from "zod";
import type { HookSyncInput } from "@/lib/server/integrations";
import { LIMITS, SessionCreateSchema, SpanInputSchema } from "./schemas";
import { decodeSpanBody } from "./span-body";
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";

export const HookSyncSchema = z
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

/** The use case's input from a request body the schema accepted (span bodies decoded). */
export function hookSyncInput(body: z.output<typeof HookSyncSchema>): HookSyncInput {
  return {
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
  };
}
