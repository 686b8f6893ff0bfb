/**
 * GenAI spans in OTLP's JSON mapping (what the JSON exporter sends) for the receiver's database
 * tests: ids in hex, times in nanoseconds as strings, attributes as key and typed value.
 */
import { randomBytes } from "node:crypto";

export const hex = (bytes: number) => randomBytes(bytes).toString("hex");
export const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

interface SpanSpec {
  traceId: string;
  spanId?: string;
  parentSpanId?: string;
  conversation?: string;
  operation: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  at: Date;
}

/** One span in OTLP's JSON mapping, as an exporter sends it. */
export function span(spec: SpanSpec) {
  const start = BigInt(spec.at.getTime()) * 1_000_000n;
  return {
    traceId: spec.traceId,
    spanId: spec.spanId ?? hex(8),
    ...(spec.parentSpanId ? { parentSpanId: spec.parentSpanId } : {}),
    name: spec.operation,
    kind: 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 1_000_000n),
    attributes: [
      attr("gen_ai.operation.name", spec.operation),
      ...(spec.conversation ? [attr("gen_ai.conversation.id", spec.conversation)] : []),
      ...(spec.attributes ?? []),
    ],
    status: { code: 1 },
  };
}

export const request = (...spans: Array<ReturnType<typeof span>>) => ({
  resourceSpans: [{ resource: { attributes: [attr("service.name", "agent")] }, scopeSpans: [{ spans }] }],
});

export const chat = (traceId: string, conversation: string, text: string, at: Date, parentSpanId?: string) =>
  span({
    traceId,
    conversation,
    operation: "chat",
    at,
    ...(parentSpanId ? { parentSpanId } : {}),
    attributes: [attr("gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: text }] }]))],
  });

export const tool = (traceId: string, parentSpanId: string, path: string, at: Date) =>
  span({
    traceId,
    parentSpanId,
    operation: "execute_tool",
    at,
    attributes: [
      attr("gen_ai.tool.name", "write_file"),
      attr("gen_ai.tool.call.id", `call_${hex(4)}`),
      attr("gen_ai.tool.call.arguments", JSON.stringify({ path })),
      attr("gen_ai.tool.call.result", "ok"),
    ],
  });
