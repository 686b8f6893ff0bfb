/**
 * The OTLP receiver fed by the real OpenTelemetry exporters (protobuf and JSON): a local HTTP
 * listener hands each request to the route handler unchanged, and what arrived is read back
 * through the API.
 */
import { context, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { OTLPTraceExporter as HttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listSessions } from "@/app/api/v1/sessions/route";
import { GET as listSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { env } from "@/lib/core/env";
import { OTLP_SPAN_LIMITS } from "@/lib/importers/otel-genai/otlp-limits";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { POST as receiveTraces } from "./route";

let listener: RouteListener;
let url: string;
const received: Array<{ type: string; encoding: string; status: number; body: Buffer }> = [];

beforeAll(async () => {
  listener = await listenWith(receiveTraces, (request, response, body) =>
    received.push({
      type: request.headers.get("content-type") ?? "",
      encoding: request.headers.get("content-encoding") ?? "",
      status: response.status,
      body,
    }),
  );
  url = `${listener.url}/api/otlp/v1/traces`;
});

afterAll(() => listener.close());

async function get(handler: typeof listSessions, key: string, path: string, params: Record<string, string> = {}) {
  const request = new Request(`http://custodian.test${path}`, { headers: { authorization: `Bearer ${key}` } });
  const response = await handler(request, { params: Promise.resolve(params) });
  expect(response.status).toBe(200);
  return response.json();
}

/**
 * The exporter, one export at a time: SimpleSpanProcessor exports each span as it ends without
 * waiting for the previous export, and the test wants the children's batches to arrive first.
 */
function oneAtATime(exporter: SpanExporter): SpanExporter {
  let last = Promise.resolve();
  return {
    export: (spans, done) => {
      last = last.then(
        () =>
          new Promise<void>((resolve) =>
            exporter.export(spans, (result) => {
              done(result);
              resolve();
            }),
          ),
      );
    },
    shutdown: () => last.then(() => exporter.shutdown()),
    forceFlush: () => last.then(() => exporter.forceFlush?.()),
  };
}

/** An agent turn as a GenAI-instrumented framework records it: invoke_agent > chat, execute_tool. */
async function recordAgentTurn(exporter: SpanExporter, conversation: string) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(oneAtATime(exporter))] });
  const tracer = provider.getTracer("custodian-test");
  const agent = tracer.startSpan("invoke_agent coder", {
    kind: SpanKind.INTERNAL,
    attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "coder", "gen_ai.conversation.id": conversation },
  });
  const inAgent = trace.setSpan(context.active(), agent);
  const chat = tracer.startSpan(
    "chat gpt-5",
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-5",
        "gen_ai.conversation.id": conversation,
        "gen_ai.input.messages": JSON.stringify([
          { role: "user", parts: [{ type: "text", content: "Set the log level in /etc/app/conf.yaml" }] },
        ]),
        "gen_ai.output.messages": JSON.stringify([
          {
            role: "assistant",
            parts: [{ type: "tool_call", id: "call_1", name: "write_file", arguments: { path: "/etc/app/conf.yaml" } }],
          },
        ]),
      },
    },
    inAgent,
  );
  chat.end();
  // The tool span carries no conversation id: it inherits the agent span's.
  const tool = tracer.startSpan(
    "execute_tool write_file",
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "write_file",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.tool.call.arguments": JSON.stringify({ path: "/etc/app/conf.yaml", content: "log_level: debug\n" }),
        "gen_ai.tool.call.result": "wrote 17 bytes",
      },
    },
    inAgent,
  );
  tool.setStatus({ code: SpanStatusCode.OK });
  tool.end();
  agent.end();
  await provider.forceFlush();
  await provider.shutdown();
}

describe("POST /api/otlp/v1/traces with the real OTLP exporters", () => {
  let key: string;
  beforeAll(async () => {
    const project = await makeTestProject("otlp");
    key = (await createApiKey(project.id, "otel", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  });

  for (const [encoding, make] of [
    ["protobuf", (k: string) => new ProtoExporter({ url, headers: { Authorization: `Bearer ${k}` } })],
    ["json", (k: string) => new HttpJsonExporter({ url, headers: { Authorization: `Bearer ${k}` } })],
  ] as const) {
    it(`maps GenAI spans sent as ${encoding}, one batch per ended span, into a session found through the API`, async () => {
      const before = received.length;
      const conversation = `conv-${encoding}-${Date.now()}`;
      await recordAgentTurn(make(key), conversation);
      const requests = received.slice(before);
      expect(requests.length).toBe(3); // SimpleSpanProcessor: the tool and chat spans before their parent
      expect(requests.every((r) => r.status === 200)).toBe(true);
      expect(requests[0]!.type).toContain(encoding === "protobuf" ? "application/x-protobuf" : "application/json");
      // The chat and tool spans came before their parent: held, with a warning, until it arrived.
      const warning =
        encoding === "protobuf"
          ? requests[0]!.body.toString("latin1")
          : String(JSON.parse(requests[0]!.body.toString()).partialSuccess?.errorMessage);
      expect(warning).toContain("held until their parent spans arrive; after a minute without them, mapped as");
      // The last spans of a run wait for the maintenance round: the warning says so, not "a minute".
      const every = env().CUSTODIAN_SWEEP_INTERVAL_MINUTES;
      expect(warning).toContain(every > 0 ? `else by the next maintenance round (every ${every} minute` : "npm run sweep");

      const sessions = await get(listSessions, key, `/api/v1/sessions?externalId=${conversation}`);
      expect(sessions.sessions).toHaveLength(1);
      const session = sessions.sessions[0];
      const spans = await get(listSpans, key, `/api/v1/sessions/${session.id}/spans`, { id: session.id });
      const calls = spans.spans.filter((s: { kind: string }) => s.kind === "TOOL_CALL");
      expect(calls.map((s: { toolName: string }) => s.toolName)).toContain("write_file");
      const write = calls.find((s: { toolName: string }) => s.toolName === "write_file");
      expect(write.class).toBe("SIDE_EFFECTING");
      expect(write.outcome).toBe("SUCCEEDED");
      expect(spans.spans.some((s: { kind: string; role: string }) => s.kind === "MESSAGE" && s.role === "user")).toBe(true);
      // Another conversation's turn adds nothing to this one.
      const count = spans.spans.length;
      await recordAgentTurn(make(key), `${conversation}-other`);
      const again = await get(listSpans, key, `/api/v1/sessions/${session.id}/spans`, { id: session.id });
      expect(again.spans.length).toBe(count);
    });
  }

  it("works with the exporter configured only by the README's environment variables (base endpoint, header, gzip)", async () => {
    const saved = { ...process.env };
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = url.replace(/\/v1\/traces$/, "");
      process.env.OTEL_EXPORTER_OTLP_HEADERS = `Authorization=Bearer%20${key}`;
      process.env.OTEL_EXPORTER_OTLP_COMPRESSION = "gzip";
      const before = received.length;
      const conversation = `conv-env-${Date.now()}`;
      await recordAgentTurn(new ProtoExporter(), conversation);
      const requests = received.slice(before);
      expect(requests.length).toBe(3);
      expect(requests.every((r) => r.status === 200 && r.encoding === "gzip")).toBe(true);
      const sessions = await get(listSessions, key, `/api/v1/sessions?externalId=${conversation}`);
      expect(sessions.sessions).toHaveLength(1);
    } finally {
      process.env = saved;
    }
  });

  it("accepts gzip and reports a span it cannot map in partial success", async () => {
    const { gzipSync } = await import("node:zlib");
    const body = gzipSync(
      JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [] },
            scopeSpans: [
              {
                spans: [
                  { name: "no ids" },
                  {
                    traceId: "5b8efff798038103d269b633813fc60c",
                    spanId: "eee19b7ec3c1b174",
                    name: "mystery",
                    startTimeUnixNano: "1764000000000000000",
                    endTimeUnixNano: "1764000001000000000",
                    attributes: [
                      { key: "gen_ai.operation.name", value: { stringValue: "teleport" } },
                      { key: "gen_ai.conversation.id", value: { stringValue: "conv-gzip" } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${key}` },
      body,
    });
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(Number(answer.partialSuccess.rejectedSpans)).toBe(2);
    expect(answer.partialSuccess.errorMessage).toContain("traceId");
    expect(answer.partialSuccess.errorMessage).toContain("eee19b7ec3c1b174");
  });

  it("refuses a body without a key, and one that is not protobuf", async () => {
    const anonymous = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf" },
      body: new Uint8Array([1]),
    });
    expect(anonymous.status).toBe(401);
    const garbage = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${key}` },
      body: new Uint8Array([0x0a, 0xff, 0xff, 0xff]),
    });
    expect(garbage.status).toBe(400);
  });

  it("refuses a gzip body that inflates past the JSON body limit with 413, naming the limit", async () => {
    const { gzipSync } = await import("node:zlib");
    // Valid JSON of 48 MiB (whitespace inside an empty request) from about 50 KB of gzip members.
    const padding = gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x20), { level: 9 });
    const body = Buffer.concat([gzipSync('{"resourceSpans":['), padding, padding, padding, gzipSync("]}")]);
    expect(body.byteLength).toBeLessThan(200 * 1024);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${key}` },
      body,
    });
    expect(response.status).toBe(413);
    const answer = await response.json();
    expect(answer.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(answer.error.details.maxBodyBytes).toBe(MAX_BODY_BYTES);
    expect(answer.error.message).toContain(String(MAX_BODY_BYTES));
  });

  it("rejects a span over the attribute cap whole, in partial success, and receives the rest of the batch", async () => {
    const chat = (spanId: string, conversation: string, extra: unknown[] = []) => ({
      traceId: "7d3f0c55b8a24e1f9a6b2c4d8e0f1a2b",
      spanId,
      name: "chat",
      startTimeUnixNano: "1764000000000000000",
      endTimeUnixNano: "1764000001000000000",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
        { key: "gen_ai.conversation.id", value: { stringValue: conversation } },
        {
          key: "gen_ai.input.messages",
          value: { stringValue: JSON.stringify([{ role: "user", parts: [{ type: "text", content: `hello ${spanId}` }] }]) },
        },
        ...extra,
      ],
    });
    const filler = Array.from({ length: OTLP_SPAN_LIMITS.attributes }, (_, i) => ({ key: `x.${i}`, value: { intValue: i } }));
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [] },
            scopeSpans: [{ spans: [chat("aaaa000000000001", "conv-capped", filler), chat("aaaa000000000002", "conv-within")] }],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(Number(answer.partialSuccess.rejectedSpans)).toBe(1);
    expect(answer.partialSuccess.errorMessage).toContain("aaaa000000000001");
    expect(answer.partialSuccess.errorMessage).toContain(`over the cap of ${OTLP_SPAN_LIMITS.attributes}`);
    expect((await get(listSessions, key, "/api/v1/sessions?externalId=conv-capped")).sessions).toEqual([]);
    expect((await get(listSessions, key, "/api/v1/sessions?externalId=conv-within")).sessions).toHaveLength(1);
  });
});
