/**
 * The receiver reads the GenAI conventions' own compaction signal as the real OpenTelemetry SDK
 * and protobuf exporter send it, one span per batch: a `compaction` message part returned by a
 * model call (finish reason `compaction`) and the `gen_ai.conversation.compacted` flag on the next
 * call, whose input is that compacted view. Message shapes from the conventions' models
 * (semantic-conventions-genai, docs/gen-ai/non-normative/models.py: CompactionPart, FinishReason).
 */
import { SpanKind } from "@opentelemetry/api";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { POST as receiveTraces } from "./route";

let listener: RouteListener;
let key: string;
let projectId: string;

beforeAll(async () => {
  listener = await listenWith(receiveTraces);
  const project = await makeTestProject("otlp-compaction");
  projectId = project.id;
  key = (await createApiKey(project.id, "otel", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
});

afterAll(() => listener.close());

const text = (content: string) => ({ type: "text", content });
const SUMMARY = "Rotated the TLS cert on web-01; nginx restarted.";

describe("OTLP receiver: the conventions' compaction signal", () => {
  it("links the compaction a model call returned, once, although the next call repeats it as compacted history", async () => {
    const conversation = `conv-compacted-${Date.now()}`;
    const exporter = new ProtoExporter({
      url: `${listener.url}/api/otlp/v1/traces`,
      headers: { Authorization: `Bearer ${key}` },
    });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer("custodian-test");
    const chat = (input: unknown[], output: unknown[], extra: Record<string, string | boolean> = {}) => {
      const span = tracer.startSpan("chat claude-sonnet-4-5", {
        kind: SpanKind.CLIENT,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "anthropic",
          "gen_ai.conversation.id": conversation,
          "gen_ai.input.messages": JSON.stringify(input),
          "gen_ai.output.messages": JSON.stringify(output),
          ...extra,
        },
      });
      span.end();
    };
    const history = [
      { role: "user", parts: [text("rotate the cert on web-01")] },
      { role: "assistant", parts: [text("rotated; restarting nginx")] },
    ];
    chat(history.slice(0, 1), [{ ...history[1], finish_reason: "stop" }]);
    await provider.forceFlush();
    chat(
      [...history, { role: "user", parts: [text("compact the conversation")] }],
      [{ role: "assistant", parts: [{ type: "compaction", id: "cmp_01", content: SUMMARY }], finish_reason: "compaction" }],
    );
    await provider.forceFlush();
    chat(
      [
        { role: "assistant", parts: [{ type: "compaction", id: "cmp_01", content: SUMMARY }] },
        { role: "user", parts: [text("when does it expire?")] },
      ],
      [{ role: "assistant", parts: [text("in 90 days")], finish_reason: "stop" }],
      { "gen_ai.conversation.compacted": true },
    );
    await provider.forceFlush();
    await provider.shutdown();

    const session = await db().session.findFirstOrThrow({ where: { projectId, externalId: conversation } });
    const spans = await db().span.findMany({ where: { sessionId: session.id }, orderBy: { seq: "asc" } });
    expect(spans.map((s) => s.kind)).toEqual(["MESSAGE", "MESSAGE", "MESSAGE", "SUMMARY", "MESSAGE", "MESSAGE"]);
    const compactions = await db().compaction.findMany({ where: { sessionId: session.id } });
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ summarySpanId: spans[3]!.id, replacedCount: 3 });
  });
});
