import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ImportCollector } from "../shared/builder";
import { detectFormat } from "../index";
import { readJaegerDocument } from "./jaeger-read";
import { OTEL_IGNORED, parseOtelGenAi, parseOtlpRequest } from "./index";
import { expectAccounted, expectWellFormed, fixture, kinds, text, verdictOf } from "../shared/testkit";
import { utf8 } from "../shared/text";

const traces = fixture("otel-genai/hand-traces.json");
const collector = fixture("otel-genai/hand-collector.jsonl");
const kagent = fixture("otel-genai/kagent-tempo-export.json");
const packetPanic = fixture("otel-genai/packet-panic-jaeger-get-inventory.json");
const kagentJaeger = fixture("otel-genai/kagent-jaeger-helm-all-namespaces.json");

const T0 = 1760000000000000000n;
const at = (sec: number) => String(T0 + BigInt(Math.round(sec * 1e9)));
const s = (key: string, value: string) => ({ key, value: { stringValue: value } });
function doc(spans: unknown[]): Uint8Array {
  return utf8(JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] }));
}
function span(id: string, start: number, end: number, attributes: unknown[], extra: Record<string, unknown> = {}) {
  return { traceId: "t1", spanId: id, name: "x", startTimeUnixNano: at(start), endTimeUnixNano: at(end), attributes, ...extra };
}

describe("OTel GenAI importer: an OTLP/JSON document", () => {
  const result = parseOtelGenAi(traces);
  const [main, old] = result.sessions;

  it("groups spans by gen_ai.conversation.id", () => {
    expect(result.sessions.map((x) => x.externalId)).toEqual(["conv_7f3a2c91", "conv_b21e"]);
    expect(main!.runtime).toBe("otel-genai");
    expect(main!.title).toMatch(/^Rotate the TLS cert on web-01/);
    expectWellFormed(result);
  });

  it("keeps each chat message once although every request repeats the history", () => {
    expect(kinds(main!)).toEqual([
      "MESSAGE",
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "SUMMARY",
      "MESSAGE",
    ]);
    expect(main!.spans.slice(0, 3).map((x) => x.role)).toEqual(["system", "user", "assistant"]);
    expect(text(main!.spans[1])).toContain("s'il te plaît 🙏");
  });

  it("maps execute_tool spans to calls and results with arguments, results and exit codes", () => {
    const calls = main!.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => c.toolName)).toEqual(["run_shell", "write_file", "run_shell"]);
    expect(text(calls[0])).toBe('{"command": "openssl x509 -in /etc/ssl/web-01.pem -noout -enddate"}');
    expect(calls[1]!.toolInput).toMatchObject({ path: "/etc/ssl/web-01.pem" });
    const results = main!.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => [r.sourceId, r.exitCode])).toEqual([
      ["call_a1", 0],
      ["call_b2", undefined],
      ["call_c3", 1],
    ]);
    expect(calls.map((c) => c.outcome)).toEqual(["SUCCEEDED", "SUCCEEDED", "FAILED"]);
    expect(text(results[2])).toMatch(/^Job for nginx.service failed/);
  });

  it("orders by time: the write tool span without a conversation id joins through its parent", () => {
    const times = main!.spans.map((x) => x.occurredAt.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(main!.spans[5]!.sourceId).toBe("call_b2");
  });

  it("turns the compact span into a compaction over everything before it", () => {
    expect(main!.compactions).toEqual([
      { summarySeq: 9, replacedSeqs: [0, 1, 2, 3, 4, 5, 6, 7, 8], occurredAt: new Date(Number(T0 / 1_000_000n) + 9000) },
    ]);
    expect(text(main!.spans[9])).toMatch(/^Rotated the TLS certificate on web-01/);
    // The summary fed back as the next request's input is not a new message.
    expect(main!.spans.filter((x) => x.kind === "MESSAGE" && text(x).startsWith("Rotated"))).toEqual([]);
  });

  it("reads the older event conventions and a compaction event whose replaced spans are absent", () => {
    expect(kinds(old!)).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT", "SUMMARY"]);
    expect(old!.spans[1]).toMatchObject({
      toolName: "edit_file",
      toolInput: { path: "/etc/hosts", append: "10.0.0.7 db.internal\n" },
    });
    expect(old!.compactions).toEqual([{ summarySeq: 3, replacedSeqs: [], occurredAt: old!.spans[3]!.occurredAt }]);
  });

  it("reports bad message JSON and a span without ids by the span's ordinal, and accounts for every span", () => {
    expect(result.issues).toEqual([
      { line: 9, message: expect.stringMatching(/^gen_ai\.output\.messages is not JSON/) },
      { line: 12, message: "span without traceId and spanId; skipped" },
    ]);
    expect(result.records).toMatchObject({ read: 15, used: 13, ignored: 1, skipped: 1 });
    expect(main!.skipped.map((i) => i.line)).toEqual([9, 12]);
  });
});

describe("OTel GenAI importer: Collector file-exporter lines", () => {
  const result = parseOtelGenAi(collector);

  it("keeps the good lines of a file with a garbled line and a cut-off end", () => {
    expect(result.sessions).toHaveLength(1);
    const conv = result.sessions[0]!;
    expect(conv.externalId).toBe("conv_deploy_19");
    expect(kinds(conv)).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT", "MESSAGE"]);
    expect(conv.spans[2]).toMatchObject({ exitCode: 100, toolName: "shell" });
    expect(result.issues.map((i) => i.line)).toEqual([3, 5]);
    expect(conv.spans[1]).toMatchObject({ outcome: "FAILED", exitCode: 100 });
    expect(result.records).toMatchObject({ read: 5, used: 3, skipped: 2 });
    expect(result.issues[1]!.message).toMatch(/truncated final line/);
    expectWellFormed(result);
  });
});

describe("OTel GenAI importer: conventions", () => {
  it("falls back to the trace id, and keeps tool calls inside messages when no tool span has them", () => {
    const chat = span("a1", 1, 2, [
      s("gen_ai.operation.name", "chat"),
      s(
        "gen_ai.output.messages",
        JSON.stringify([
          { role: "assistant", parts: [{ type: "tool_call", id: "c1", name: "rm", arguments: { path: "/var/lib/app" } }] },
        ]),
      ),
    ]);
    const next = span("a2", 3, 4, [
      s("gen_ai.operation.name", "chat"),
      s(
        "gen_ai.input.messages",
        JSON.stringify([{ role: "tool", parts: [{ type: "tool_call_response", id: "c1", response: "removed" }] }]),
      ),
    ]);
    const result = parseOtelGenAi(doc([chat, next]));
    const conv = result.sessions[0]!;
    expect(conv.externalId).toBe("t1");
    expect(conv.spans.map((x) => [x.kind, x.toolName])).toEqual([
      ["TOOL_CALL", "rm"],
      ["TOOL_RESULT", "rm"],
    ]);
    expect(text(conv.spans[0])).toBe('{"path":"/var/lib/app"}');
  });

  it("replaces exactly the listed spans when a compaction names them", () => {
    const one = span("s1", 1, 2, [
      s("gen_ai.operation.name", "chat"),
      s("gen_ai.conversation.id", "c"),
      s("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "one" }] }])),
    ]);
    const two = span("s2", 3, 4, [
      s("gen_ai.operation.name", "chat"),
      s("gen_ai.conversation.id", "c"),
      s("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "two" }] }])),
    ]);
    const compact = span("s3", 5, 6, [
      s("gen_ai.operation.name", "compact"),
      s("gen_ai.conversation.id", "c"),
      {
        key: "gen_ai.compaction.replaced_span_ids",
        value: { arrayValue: { values: [{ stringValue: "s1" }, { stringValue: "gone" }] } },
      },
      s("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "said one" }] }])),
    ]);
    const conv = parseOtelGenAi(doc([two, compact, one])).sessions[0]!;
    expect(conv.spans.map((x) => text(x))).toEqual(["one", "two", "said one"]);
    expect(conv.compactions).toEqual([{ summarySeq: 2, replacedSeqs: [0], occurredAt: conv.spans[2]!.occurredAt }]);
  });

  it("skips GenAI operations it cannot map and ignores embeddings, each counted", () => {
    const http = span("h1", 1, 2, [s("http.request.method", "GET")], { kind: 3 });
    const odd = span("o1", 2, 3, [s("gen_ai.operation.name", "teleport")]);
    const emb = span("e1", 3, 4, [s("gen_ai.operation.name", "embeddings")]);
    const result = parseOtelGenAi(doc([http, odd, emb]));
    expect(result.issues).toEqual([
      { line: 2, message: 'GenAI span of operation "teleport" that this importer cannot map; skipped' },
    ]);
    expect(result.records).toMatchObject({
      read: 3,
      used: 0,
      skipped: 1,
      ignoredByType: { "request:read-only": 1, "gen_ai:embeddings": 1 },
    });
    expectAccounted(result);
  });

  it("reads indexed prompt and completion attributes", () => {
    const chat = span("p1", 1, 2, [
      s("gen_ai.prompt.0.role", "user"),
      s("gen_ai.prompt.0.content", "hello"),
      s("gen_ai.completion.0.content", "hi there"),
    ]);
    const conv = parseOtelGenAi(doc([chat])).sessions[0]!;
    expect(conv.spans.map((x) => [x.role, text(x)])).toEqual([
      ["user", "hello"],
      ["assistant", "hi there"],
    ]);
  });

  it("recovers the readable spans of a truncated document", () => {
    const full = new TextDecoder().decode(traces);
    const cut = full.slice(0, full.indexOf('"spanId": "a000000000000006"'));
    const result = parseOtelGenAi(utf8(cut));
    expect(result.issues[0]).toMatchObject({ line: 0, message: expect.stringMatching(/not valid JSON.*read 5 spans/) });
    expect(result.issues.at(-1)?.message).toMatch(/truncated span/);
    expect(kinds(result.sessions[0]!)).toEqual([
      "MESSAGE",
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
    ]);
    expectWellFormed(result);
  });
});

const tool = (id: string, start: number, end: number | undefined, attributes: unknown[], extra: Record<string, unknown> = {}) => {
  const base = span(id, start, end ?? start, [s("gen_ai.operation.name", "execute_tool"), ...attributes], extra);
  if (end === undefined) delete (base as Record<string, unknown>).endTimeUnixNano;
  return base;
};
const n = (key: string, value: number) => ({ key, value: { intValue: String(value) } });

describe("OTel GenAI importer: tool outcomes from the conventions and the span", () => {
  const spans = [
    tool("t1", 1, 2, [s("gen_ai.tool.name", "a"), s("gen_ai.tool.call.arguments", "{}"), s("gen_ai.tool.call.result", "ok")]),
    tool("t2", 3, 4, [s("gen_ai.tool.name", "b"), s("gen_ai.tool.call.arguments", "{}")], {
      status: { code: 2, message: "boom" },
    }),
    tool("t3", 5, 6, [s("gen_ai.tool.name", "c"), s("gen_ai.tool.call.arguments", "{}"), s("error.type", "TimeoutError")]),
    tool("t4", 7, 8, [s("gen_ai.tool.name", "d"), s("gen_ai.tool.call.arguments", "{}"), n("process.exit.code", 2)]),
    tool("t5", 9, undefined, [s("gen_ai.tool.name", "e"), s("gen_ai.tool.call.arguments", "{}")]),
    tool("t6", 11, 12, [s("gen_ai.tool.name", "f"), s("gen_ai.tool.call.arguments", "{}")]),
    tool("t7", 13, 14, [s("gen_ai.tool.name", "g"), s("gen_ai.tool.call.arguments", "{}"), n("process.exit.code", 0)]),
    tool("t8", 15, 16, [s("gen_ai.tool.name", "h"), s("gen_ai.tool.call.arguments", "{}")], {
      status: { code: "STATUS_CODE_OK" },
    }),
  ];
  const conv = parseOtelGenAi(doc(spans)).sessions[0]!;
  const calls = conv.spans.filter((x) => x.kind === "TOOL_CALL");

  it("FAILED on status ERROR, error.type or a non-zero exit code; SUCCEEDED with a result, exit 0 or status OK; else UNKNOWN", () => {
    expect(calls.map((c) => [c.toolName, c.outcome, c.exitCode])).toEqual([
      ["a", "SUCCEEDED", undefined],
      ["b", "FAILED", undefined],
      ["c", "FAILED", undefined],
      ["d", "FAILED", 2],
      ["e", "UNKNOWN", undefined],
      ["f", "UNKNOWN", undefined],
      ["g", "SUCCEEDED", 0],
      ["h", "SUCCEEDED", undefined],
    ]);
    const results = conv.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => [r.toolName, text(r)])).toEqual([
      ["a", "ok"],
      ["b", "boom"],
      ["c", "TimeoutError"],
      ["d", ""],
      ["g", ""],
    ]);
  });

  it("keeps a tool call whose arguments were not captured, and marks its session incomplete", () => {
    const result = parseOtelGenAi(doc([tool("x", 1, 2, [s("gen_ai.tool.name", "rm")])]));
    const only = result.sessions[0]!;
    expect(only.spans.map((x) => [x.kind, x.toolName, x.outcome])).toEqual([["TOOL_CALL", "rm", "UNKNOWN"]]);
    expect(only.skipped[0]!.message).toMatch(/arguments of tool call "rm" were not captured/);
    expect(result.records).toMatchObject({ read: 1, used: 1, skipped: 0 });
    expect(verdictOf(result, () => false)).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("gives tool calls inside messages an outcome from their response", () => {
    const out = span("m1", 1, 2, [
      s("gen_ai.operation.name", "chat"),
      s(
        "gen_ai.output.messages",
        JSON.stringify([
          {
            role: "assistant",
            parts: [
              { type: "tool_call", id: "k1", name: "x", arguments: {} },
              { type: "tool_call", id: "k2", name: "y", arguments: {} },
              { type: "tool_call", id: "k3", name: "z", arguments: {} },
            ],
          },
        ]),
      ),
    ]);
    const back = span("m2", 3, 4, [
      s("gen_ai.operation.name", "chat"),
      s(
        "gen_ai.input.messages",
        JSON.stringify([
          {
            role: "tool",
            parts: [
              { type: "tool_call_response", id: "k1", response: "fine" },
              { type: "tool_call_response", id: "k2", response: { error: "denied" } },
            ],
          },
        ]),
      ),
    ]);
    const conv = parseOtelGenAi(doc([out, back])).sessions[0]!;
    expect(conv.spans.filter((x) => x.kind === "TOOL_CALL").map((c) => [c.toolName, c.outcome])).toEqual([
      ["x", "SUCCEEDED"],
      ["y", "FAILED"],
      ["z", "UNKNOWN"],
    ]);
  });
});

describe("OTel GenAI importer: a call repeated in later requests' history", () => {
  it("is kept once by its call id, although the framework re-serialised its arguments", () => {
    const call = (at: string, args: string) => [
      s(`${at}.role`, "assistant"),
      s(`${at}.tool_calls.0.id`, "k1"),
      s(`${at}.tool_calls.0.name`, "helm_list_releases"),
      s(`${at}.tool_calls.0.arguments`, args),
    ];
    const response = [
      s("gen_ai.prompt.2.role", "tool"),
      s("gen_ai.prompt.2.tool_call_id", "k1"),
      s("gen_ai.prompt.2.content", "ok"),
    ];
    const first = span("c1", 1, 2, [s("gen_ai.prompt.0.content", "list"), ...call("gen_ai.completion.0", '{"all":"true"}')]);
    const second = span("c2", 3, 4, [
      s("gen_ai.prompt.0.content", "list"),
      ...call("gen_ai.prompt.1", '{"all": "true"}'),
      ...response,
    ]);
    const third = span("c3", 5, 6, [
      s("gen_ai.prompt.0.content", "list"),
      ...call("gen_ai.prompt.1", '{ "all" : "true" }'),
      ...response.map((a) => (a.key.endsWith("content") ? s(a.key, "ok ") : a)),
    ]);
    const conv = parseOtelGenAi(doc([first, second, third])).sessions[0]!;
    expect(conv.spans.map((x) => [x.kind, x.toolName, x.outcome])).toEqual([
      ["MESSAGE", undefined, undefined],
      ["TOOL_CALL", "helm_list_releases", "SUCCEEDED"],
      ["TOOL_RESULT", "helm_list_releases", "SUCCEEDED"],
    ]);
  });
});

describe("OTel GenAI importer: spans of other instrumentation and conversations", () => {
  it("makes a tool's outgoing POST a TOOL_CALL, ignores the model call's own request, reads and server spans", () => {
    const agent = span("ag", 1, 20, [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.conversation.id", "c9")]);
    const chat = span("ch", 2, 5, [s("gen_ai.operation.name", "chat"), s("gen_ai.request.model", "m")], { parentSpanId: "ag" });
    const llmPost = span("lp", 2, 4, [s("http.request.method", "POST"), s("url.full", "https://api.example/v1/chat")], {
      parentSpanId: "ch",
      kind: 3,
    });
    const exec = tool("tx", 6, 9, [s("gen_ai.tool.name", "notify"), s("gen_ai.tool.call.arguments", "{}")], {
      parentSpanId: "ag",
    });
    const post = span(
      "tp",
      7,
      8,
      [s("http.request.method", "POST"), s("url.full", "https://hooks.example/x"), n("http.response.status_code", 503)],
      {
        parentSpanId: "tx",
        kind: 3,
      },
    );
    const get = span("tg", 7, 8, [s("http.request.method", "GET"), s("url.full", "https://hooks.example/y")], {
      parentSpanId: "tx",
      kind: 3,
    });
    const server = span("sv", 0, 21, [s("http.request.method", "POST")], { kind: 2 });
    const internal = span("in", 10, 11, [s("app.step", "x")], { parentSpanId: "ag", kind: 1 });
    const result = parseOtelGenAi(doc([post, get, exec, llmPost, chat, agent, server, internal]));
    const conv = result.sessions[0]!;
    expect(conv.externalId).toBe("c9");
    expect(conv.spans.map((x) => [x.kind, x.toolName, x.outcome])).toEqual([
      ["TOOL_CALL", "notify", "UNKNOWN"],
      ["TOOL_CALL", "http", "FAILED"],
    ]);
    expect(conv.spans[1]!.toolInput).toEqual({ method: "POST", url: "https://hooks.example/x" });
    // The chat span has no content: it is skipped (the session cannot answer NO), not dropped.
    expect(result.records).toMatchObject({
      read: 8,
      used: 3,
      skipped: 1,
      ignoredByType: { "request:model-transport": 1, "request:read-only": 1, "span:incoming": 1, "span:internal": 1 },
    });
    expect(conv.skipped.map((i) => i.line)).toEqual([5]);
    expectAccounted(result);
  });

  it("ignores a trace with no GenAI span at all", () => {
    const result = parseOtelGenAi(doc([span("h", 1, 2, [s("http.request.method", "POST")], { kind: 3 })]));
    expect(result.sessions).toEqual([]);
    expect(result.records.ignoredByType).toEqual({ "span:non-genai-trace": 1 });
  });

  it("gives a tool span the conversation of an ancestor that comes after it in the file", () => {
    const leaf = tool("l", 5, 6, [s("gen_ai.tool.name", "write_file"), s("gen_ai.tool.call.arguments", '{"path":"/etc/x"}')], {
      parentSpanId: "mid",
    });
    const mid = span("mid", 4, 7, [s("app.step", "x")], { parentSpanId: "root", kind: 1 });
    const other = span("o", 1, 2, [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.conversation.id", "other")], {
      traceId: "t1",
    });
    const root = span("root", 3, 8, [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.conversation.id", "mine")]);
    const result = parseOtelGenAi(doc([leaf, mid, other, root]));
    const mine = result.sessions.find((x) => x.externalId === "mine")!;
    expect(mine.spans.map((x) => x.toolName)).toEqual(["write_file"]);
    expectAccounted(result);
  });

  it("skips event-based GenAI log records and ignores other log records", () => {
    const body = {
      resourceSpans: [
        { scopeSpans: [{ spans: [tool("a", 1, 2, [s("gen_ai.tool.name", "x"), s("gen_ai.tool.call.arguments", "{}")])] }] },
      ],
      resourceLogs: [
        {
          scopeLogs: [
            { logRecords: [{ eventName: "gen_ai.user.message", spanId: "a" }, { attributes: [s("event.name", "app.log")] }] },
          ],
        },
      ],
    };
    const result = parseOtlpRequest(body);
    expect(result.records).toMatchObject({ read: 3, used: 1, skipped: 1, ignoredByType: { "log:non-genai": 1 } });
    expect(result.issues[0]).toMatchObject({ line: 2, message: expect.stringMatching(/gen_ai\.user\.message/) });
  });

  it("imports a decoded request object exactly as its JSON bytes", () => {
    const decoded = JSON.parse(new TextDecoder().decode(traces)) as unknown;
    expect(parseOtlpRequest(decoded)).toEqual(parseOtelGenAi(traces));
    expect(parseOtlpRequest({ hello: 1 }).issues[0]!.message).toMatch(/not an OTLP trace request/);
  });

  it("skips a span whose attributes are not a list of key/value entries", () => {
    const bad = { ...tool("b", 1, 2, [s("gen_ai.tool.name", "x")]), attributes: 42 };
    const result = parseOtelGenAi(doc([bad]));
    expect(result.records).toMatchObject({ read: 1, skipped: 1 });
    expect(result.issues[0]!.message).toMatch(/attributes that are not a list/);
  });

  it("skips invalid UTF-8 and a cut-off final line of file-exporter lines", () => {
    const good = JSON.stringify({
      resourceSpans: [
        { scopeSpans: [{ spans: [tool("a", 1, 2, [s("gen_ai.tool.name", "x"), s("gen_ai.tool.call.arguments", "{}")])] }] },
      ],
    });
    const bytes = new Uint8Array([...utf8(`${good}\n`), 0xff, 0xfe, 0x0a, ...utf8(good.slice(0, 40))]);
    const result = parseOtelGenAi(bytes);
    expect(result.records).toMatchObject({ read: 3, used: 1, skipped: 2 });
    expect(result.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/invalid UTF-8/),
      expect.stringMatching(/truncated final line/),
    ]);
  });
});

describe("OTel GenAI importer: a real kagent trace downloaded from Grafana Tempo", () => {
  const result = parseOtelGenAi(kagent);
  const conv = result.sessions[0]!;

  it("is detected, and every span is used or ignored by a documented type", () => {
    expect(detectFormat(kagent)).toBe("otel-genai");
    expectWellFormed(result);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["ctx-eff35888-55ab-4eb0-b90d-7b21f711f91f"]);
    expect(result.records).toEqual({
      read: 86,
      used: 15,
      ignored: 71,
      skipped: 0,
      ignoredByType: {
        "span:incoming": 53,
        "request:model-transport": 5,
        "span:internal": 9,
        "model-call:recorded-elsewhere": 4,
      },
    });
    for (const type of Object.keys(result.records.ignoredByType)) expect(OTEL_IGNORED[type]).toBeDefined();
    expect(conv.title).toBe("list all helm releases");
  });

  it("maps the ADK tool span, the chat history once, and the MCP POSTs the tool made", () => {
    const call = conv.spans.find((x) => x.toolName === "helm_list_releases" && x.kind === "TOOL_CALL")!;
    expect(call).toMatchObject({ outcome: "SUCCEEDED", sourceId: "call_w0eKlvnaE7S9GQJeSSs0gn05", toolInput: {} });
    expect(text(conv.spans.find((x) => x.kind === "TOOL_RESULT"))).toMatch(/^\{"content": \[\{"type": "text", "text": "NAME/);
    expect(conv.spans.filter((x) => x.kind === "MESSAGE").map((x) => x.role)).toEqual(["system", "user", "assistant"]);
    const mcp = conv.spans.filter((x) => x.toolName === "http" && JSON.stringify(x.toolInput).includes("kagent-tools"));
    expect(mcp.map((x) => [(x.toolInput as { method: string }).method, x.outcome])).toEqual([
      ["POST", "SUCCEEDED"],
      ["POST", "SUCCEEDED"],
      ["POST", "SUCCEEDED"],
      ["DELETE", "SUCCEEDED"],
    ]);
  });
});

const tag = (key: string, type: string, value: unknown) => ({ key, type, value });
const US0 = 1760000000000000; // microseconds, Jaeger's unit
function jaegerSpan(id: string, extra: Record<string, unknown> = {}) {
  return {
    traceID: "tr1",
    spanID: id,
    operationName: id,
    references: [],
    startTime: US0,
    duration: 2_000_000,
    tags: [],
    logs: [],
    processID: "p1",
    warnings: null,
    ...extra,
  };
}
const childOf = (spanID: string, traceID = "tr1") => ({ refType: "CHILD_OF", traceID, spanID });

describe("OTel GenAI importer: Jaeger's JSON export", () => {
  const trace = {
    traceID: "tr1",
    spans: [
      jaegerSpan("root", {
        tags: [tag("gen_ai.operation.name", "string", "invoke_agent"), tag("gen_ai.conversation.id", "string", "c1")],
      }),
      jaegerSpan("chat", {
        references: [childOf("root")],
        startTime: US0 + 1_000_000,
        tags: [
          tag("gen_ai.operation.name", "string", "chat"),
          tag(
            "gen_ai.input.messages",
            "string",
            JSON.stringify([{ role: "user", parts: [{ type: "text", content: "prune /tmp" }] }]),
          ),
          tag("gen_ai.usage.input_tokens", "int64", "12"),
          tag("gen_ai.usage.output_tokens", "int64", 7),
          tag("gen_ai.request.temperature", "float64", 0.2),
          tag("gen_ai.request.stream", "bool", false),
          tag("app.blob", "binary", "AAE="),
          tag("span.kind", "string", "client"),
          tag("otel.status_code", "string", "OK"),
          tag("otel.scope.name", "string", "my.instrumentation"),
        ],
      }),
      jaegerSpan("tool", {
        // A CHILD_OF into another trace is a link; the FOLLOWS_FROM into this one is the parent.
        references: [childOf("elsewhere", "tr0"), { refType: "FOLLOWS_FROM", traceID: "tr1", spanID: "root" }],
        startTime: US0 + 4_000_000,
        duration: 500_000,
        processID: "p9",
        tags: [
          tag("gen_ai.operation.name", "string", "execute_tool"),
          tag("gen_ai.tool.name", "string", "rm"),
          tag("gen_ai.tool.call.arguments", "string", '{"path": "/tmp/cache"}'),
          tag("error", "bool", true),
        ],
        logs: [
          {
            timestamp: US0 + 4_400_000,
            fields: [tag("event", "string", "exception"), tag("exception.message", "string", "permission denied")],
          },
        ],
      }),
      jaegerSpan("bad-tags", { tags: 42 }),
      jaegerSpan("bad-int", { tags: [tag("n", "int64", "many")] }),
      "not a span",
      { operationName: "no ids" },
    ],
    processes: { p1: { serviceName: "agent-svc", tags: [tag("host.name", "string", "h1")] } },
    warnings: null,
  };
  const document = { data: [trace], total: 0, limit: 0, offset: 0, errors: null };

  it("maps typed tags, the tags OTLP fields became, references, times, logs and the process", () => {
    const sink = new ImportCollector("otel-genai");
    const { spans } = readJaegerDocument(document, sink);
    const [root, chat, tool] = spans;
    expect(spans.map((x) => x.spanId)).toEqual(["root", "chat", "tool"]);
    expect(root!.parentSpanId).toBeUndefined();
    expect(chat).toMatchObject({ position: 2, traceId: "tr1", parentSpanId: "root", name: "chat", kind: "CLIENT", status: "OK" });
    expect(Object.fromEntries(chat!.attrs)).toMatchObject({
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.request.temperature": 0.2,
      "gen_ai.request.stream": false,
      "app.blob": "AAE=",
    });
    for (const key of ["span.kind", "otel.status_code", "otel.scope.name"]) expect(chat!.attrs.has(key)).toBe(false);
    expect([chat!.start, chat!.end]).toEqual([1760000001000000000n, 1760000003000000000n]);
    expect(Object.fromEntries(chat!.resource)).toEqual({ "service.name": "agent-svc", "host.name": "h1" });
    expect(tool).toMatchObject({ parentSpanId: "root", kind: "UNSPECIFIED", status: "ERROR", failed: true });
    expect(tool!.attrs.has("error")).toBe(false);
    expect(tool!.events).toEqual([
      { name: "exception", time: 1760000004400000000n, attrs: new Map([["exception.message", "permission denied"]]) },
    ]);
    expect(tool!.resource.size).toBe(0);
    expect(sink.issues.map((i) => [i.line, i.message])).toEqual([
      [3, 'span tool names process "p9", which the trace does not list; its service is unknown'],
      [4, "span bad-tags has tags that are not a list; skipped"],
      [5, 'span bad-int has tags entry "n" whose value is not of its type int64; skipped'],
      [6, "span is not a JSON object; skipped"],
      [7, "span without traceID and spanID; skipped"],
    ]);
  });

  it("is detected and imported like OTLP, in the API's {data: [...]} form and as one trace", () => {
    for (const shape of [document, trace]) {
      const bytes = utf8(JSON.stringify(shape, null, 2));
      expect(detectFormat(bytes)).toBe("otel-genai");
      const result = parseOtelGenAi(bytes);
      expect(result.records).toEqual({ read: 7, used: 3, ignored: 0, skipped: 4, ignoredByType: {} });
      const conv = result.sessions[0]!;
      expect(conv.externalId).toBe("c1");
      expect(conv.spans.map((x) => [x.kind, x.role ?? x.toolName, x.outcome, text(x)])).toEqual([
        ["MESSAGE", "user", undefined, "prune /tmp"],
        ["TOOL_CALL", "rm", "FAILED", '{"path": "/tmp/cache"}'],
        ["TOOL_RESULT", "rm", "FAILED", "permission denied"],
      ]);
      expectWellFormed(result);
    }
  });

  it("recovers the readable spans of a cut-off export, and refuses a Jaeger file of no trace", () => {
    const full = JSON.stringify(document, null, 2);
    const result = parseOtelGenAi(utf8(full.slice(0, full.indexOf('"spanID": "bad-tags"'))));
    expect(result.issues[0]!.message).toMatch(/not valid JSON.*read 3 spans/);
    expect(kinds(result.sessions[0]!)).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]);
    // The spans, and the file's own damage reported as record 0.
    expect(result.records).toMatchObject({ read: 5, used: 3, skipped: 2 });
    expect(parseOtelGenAi(utf8('{"data": [{"traceID": "x"}]}')).issues[0]!.message).toMatch(/without a spans list/);
  });
});

describe("OTel GenAI importer: OpenLLMetry's LangChain spans", () => {
  const payload = (status: string) => ({
    tool: tool("lt", 3, 4, [
      s("gen_ai.tool.name", "delete_branch"),
      s(
        "gen_ai.tool.call.arguments",
        JSON.stringify({
          input_str: "{'branch': 'main'}",
          tags: [],
          metadata: { langgraph_node: "tools" },
          inputs: { branch: "main" },
          kwargs: { color: "green", tool_call_id: "toolu_9" },
        }),
      ),
      s(
        "gen_ai.tool.call.result",
        JSON.stringify({
          output: {
            lc: 1,
            type: "constructor",
            id: ["langchain", "schema", "messages", "ToolMessage"],
            kwargs: { content: "protected branch", tool_call_id: "toolu_9", status },
          },
          kwargs: {},
        }),
      ),
    ]),
    chat: span("lc", 1, 2, [
      s("gen_ai.operation.name", "chat"),
      s(
        "gen_ai.output.messages",
        JSON.stringify([
          { role: "assistant", parts: [{ type: "tool_call", id: "toolu_9", name: "delete_branch", arguments: {} }] },
        ]),
      ),
    ]),
  });

  it("reads the tool's input and call id from the callback payload, and fails a ToolMessage of status error", () => {
    const { tool: t, chat } = payload("error");
    const conv = parseOtelGenAi(doc([chat, t])).sessions[0]!;
    // The model's call is the tool span's (same call id): one TOOL_CALL, not two.
    expect(conv.spans.map((x) => [x.kind, x.toolName, x.outcome, x.sourceId])).toEqual([
      ["TOOL_CALL", "delete_branch", "FAILED", "toolu_9"],
      ["TOOL_RESULT", "delete_branch", "FAILED", "toolu_9"],
    ]);
    expect(conv.spans[0]!.toolInput).toEqual({ branch: "main" });
    expect(text(conv.spans[1])).toBe("protected branch");
    const ok = parseOtelGenAi(doc([payload("success").tool])).sessions[0]!;
    expect(ok.spans[0]!.outcome).toBe("SUCCEEDED");
  });

  it("merges execute_task steps into a conversation with model-call messages, and skips them in one without", () => {
    const step = (id: string) =>
      span(id, 5, 6, [
        s("gen_ai.operation.name", "execute_task"),
        s("gen_ai.task.name", "call_model"),
        s("gen_ai.task.input", '{"inputs": {"messages": []}}'),
      ]);
    const withChat = parseOtelGenAi(doc([payload("success").chat, step("st")]));
    expect(withChat.records).toMatchObject({ read: 2, used: 2, skipped: 0 });
    const alone = parseOtelGenAi(doc([step("st")]));
    expect(alone.records).toMatchObject({ read: 1, used: 0, skipped: 1 });
    expect(alone.issues[0]!.message).toMatch(/^workflow step "x" records its input and output .* what it carried is missing$/);
  });
});

describe("OTel GenAI importer: a real AGNTCY two-agent trace downloaded from Jaeger", () => {
  const result = parseOtelGenAi(packetPanic);
  const conv = result.sessions[0]!;

  it("is detected, and every span is used or ignored by a documented type", () => {
    expect(detectFormat(packetPanic)).toBe("otel-genai");
    expectWellFormed(result);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["5edab84350c3da3b38a026540a681652"]);
    expect(result.records).toEqual({
      read: 77,
      used: 22,
      ignored: 55,
      skipped: 0,
      ignoredByType: { "span:incoming": 39, "span:internal": 14, "request:inside-request": 2 },
    });
    for (const type of Object.keys(result.records.ignoredByType)) expect(OTEL_IGNORED[type]).toBeDefined();
    expect(result.issues).toEqual([]);
    expect(conv.title).toBe("Hola! Dime porfavor cuál es mi inventario de red");
  });

  it("maps both agents' chats, the MCP tool span once, and the supervisor's call of the detector", () => {
    expect(conv.spans.map((x) => [x.kind, x.role ?? x.toolName])).toEqual([
      ["MESSAGE", "system"],
      ["MESSAGE", "user"],
      ["TOOL_CALL", "query_detector"],
      ["TOOL_CALL", "request"],
      ["MESSAGE", "system"],
      ["MESSAGE", "user"],
      ["TOOL_CALL", "pyats_list_devices"],
      ["TOOL_RESULT", "pyats_list_devices"],
      ["MESSAGE", "assistant"],
      ["TOOL_RESULT", "query_detector"],
      ["MESSAGE", "assistant"],
    ]);
    const calls = conv.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.toolName, c.outcome, c.sourceLine, c.sourceId])).toEqual([
      ["query_detector", "SUCCEEDED", 16, "toolu_01UW7nyANTMrrg6xYJNawrHF"],
      ["request", "SUCCEEDED", 47, "5f8037f703d66920"],
      ["pyats_list_devices", "SUCCEEDED", 45, "toolu_01YEtwd35Rf1ZdBQfFQXHiYY"],
    ]);
    expect(calls[0]!.toolInput).toMatchObject({ instruction: expect.stringMatching(/^Obtener el inventario completo/) });
    expect(calls[1]!.toolInput).toEqual({ name: "a2a.client.transports.jsonrpc.JsonRpcTransport.send_message" });
    expect(calls[2]!.toolInput).toEqual({});
    expect(text(conv.spans[7])).toMatch(/^\[\{"type":"text","text":"\{\\n {2}\\"status\\": \\"completed\\"/);
    expect(text(conv.spans.at(-1))).toMatch(/^## 📋 Inventario de Red/);
  });
});

describe("OTel GenAI importer: a real kagent trace downloaded from Jaeger", () => {
  const result = parseOtelGenAi(kagentJaeger);
  const conv = result.sessions[0]!;

  it("is detected, and every span is used or ignored by a documented type", () => {
    expect(detectFormat(kagentJaeger)).toBe("otel-genai");
    expectWellFormed(result);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["ctx-9cf62851-eac3-4802-ae09-0825201ee0b4"]);
    expect(result.records).toEqual({
      read: 125,
      used: 21,
      ignored: 104,
      skipped: 0,
      ignoredByType: {
        "span:incoming": 79,
        "span:internal": 14,
        "request:read-only": 4,
        "request:model-transport": 5,
        "model-call:recorded-elsewhere": 2,
      },
    });
    expect(conv.title).toBe("I need all the Helm releases right now!!");
  });

  it("maps the ADK tool span with its arguments, the chat once, and the agent's requests", () => {
    const counts = Object.fromEntries(
      ["MESSAGE", "TOOL_CALL", "TOOL_RESULT"].map((k) => [k, kinds(conv).filter((x) => x === k).length]),
    );
    expect(counts).toEqual({ MESSAGE: 3, TOOL_CALL: 18, TOOL_RESULT: 1 });
    expect(conv.spans.filter((x) => x.kind === "MESSAGE").map((x) => x.role)).toEqual(["system", "user", "assistant"]);
    const call = conv.spans.find((x) => x.toolName === "helm_list_releases" && x.kind === "TOOL_CALL")!;
    expect(call).toMatchObject({
      outcome: "SUCCEEDED",
      sourceLine: 122,
      sourceId: "call_jLiZJa0OLDaaIpPoJzSHAnVM",
      toolInput: { all_namespaces: "true", output: "json" },
    });
    expect(text(conv.spans.find((x) => x.kind === "TOOL_RESULT"))).toMatch(
      /^\{"content": \[\{"type": "text", "text": "\[\{\\"name\\":\\"jaeger\\"/,
    );
    const requests = conv.spans.filter((x) => x.toolName === "http");
    const byTarget = (host: string) =>
      requests
        .filter((x) => (x.toolInput as { url: string }).url.includes(host))
        .map((x) => `${(x.toolInput as { method: string }).method} ${x.outcome}`);
    expect(byTarget("kagent-tools")).toEqual([...Array(6).fill("POST SUCCEEDED"), "DELETE SUCCEEDED"]);
    expect(byTarget("kagent-controller")).toEqual(Array(10).fill("POST SUCCEEDED"));
  });
});

const OTLP_FIELDS = ["traceId", "spanId", "parentSpanId", "attributes", "events", "status", "startTimeUnixNano", "kind", "name"];
const JAEGER_FIELDS = ["traceID", "spanID", "references", "tags", "logs", "startTime", "duration", "processID", "operationName"];
type Doc = Record<string, unknown>;
const REAL_TRACES = [
  {
    name: "kagent trace from Tempo",
    bytes: kagent,
    tool: "helm_list_releases",
    spanStart: /\{"traceId":/g,
    spansOf: (doc: Doc) =>
      (doc as { batches: Array<{ instrumentationLibrarySpans: Array<{ spans: Doc[] }> }> }).batches.flatMap((b) =>
        b.instrumentationLibrarySpans.flatMap((l) => l.spans),
      ),
    fields: OTLP_FIELDS,
  },
  {
    name: "AGNTCY trace from Jaeger",
    bytes: packetPanic,
    tool: "pyats_list_devices",
    spanStart: /\{\s*"traceID":\s*"[0-9a-f]+",\s*"spanID"/g,
    spansOf: (doc: Doc) => (doc as { data: Array<{ spans: Doc[] }> }).data.flatMap((t) => t.spans),
    fields: JAEGER_FIELDS,
  },
  {
    name: "kagent trace from Jaeger",
    bytes: kagentJaeger,
    tool: "helm_list_releases",
    spanStart: /\{\s*"traceID":\s*"[0-9a-f]+",\s*"spanID"/g,
    spansOf: (doc: Doc) => (doc as { data: Array<{ spans: Doc[] }> }).data.flatMap((t) => t.spans),
    fields: JAEGER_FIELDS,
  },
];

describe.each(REAL_TRACES)("OTel GenAI importer: corrupting the real $name never turns YES into NO", (real) => {
  const full = new TextDecoder().decode(real.bytes);
  const ranTool = (span: { kind: string; toolName?: string }) => span.kind === "TOOL_CALL" && span.toolName === real.tool;
  const starts = [...full.matchAll(real.spanStart)].map((m) => m.index!);
  // The file's bytes and where each span starts and ends in them, worked out once: each run below
  // damages one span of a copy and imports it, rather than encoding the whole document again.
  const raw = utf8(full);
  const byteStarts = starts.map((s) => utf8(full.slice(0, s)).length);
  const WRONG: unknown[] = [42, [], {}, true, null, "x"];
  // Not covered, because no reader can detect them: a value changed into another valid value of
  // the same type, and deleting a span nothing else names (a leaf such as the tool span: OTLP
  // exports are often partial, so a parent missing from the file is not evidence of loss either).
  const corruption = fc.oneof(
    // Damaged bytes only: "{" or another printable byte inside a string is another valid value.
    fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.constantFrom(0xff, 0xc3, 0x00, 0x22, 0x01) }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("break" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("retype" as const), field: fc.constantFrom(...real.fields), value: fc.constantFrom(...WRONG) }),
  );

  it("holds for byte flips, cut records, broken JSON and wrong field types", () => {
    expect(starts.length).toBe(real.spansOf(JSON.parse(full) as Doc).length);
    expect(verdictOf(parseOtelGenAi(real.bytes), ranTool)).toBe("YES");
    fc.assert(
      fc.property(fc.nat({ max: starts.length - 1 }), corruption, (which, c) => {
        let bytes: Uint8Array;
        if (c.kind === "retype") {
          const doc = JSON.parse(full) as Doc;
          real.spansOf(doc)[which]![c.field] = c.value;
          bytes = utf8(JSON.stringify(doc));
        } else {
          const byteBegin = byteStarts[which]!;
          const byteEnd = byteStarts[which + 1] ?? raw.length;
          const at = byteBegin + (c.at % Math.max(1, byteEnd - byteBegin));
          if (c.kind === "flip") bytes = raw.slice();
          else if (c.kind === "truncate") bytes = raw.subarray(0, at);
          else {
            // A raw control character first: inside a string ",}" alone is another valid value.
            bytes = new Uint8Array(raw.length + 3);
            bytes.set(raw.subarray(0, at));
            bytes.set([0x01, 0x2c, 0x7d], at);
            bytes.set(raw.subarray(at), at + 3);
          }
          if (c.kind === "flip") bytes[at] = c.byte;
        }
        const result = parseOtelGenAi(bytes);
        expectAccounted(result);
        expect(verdictOf(result, ranTool)).not.toBe("NO");
      }),
      { numRuns: 150 },
    );
  }, 30_000); // 150 imports of a file of up to half a megabyte
});
