import { describe, expect, it } from "vitest";
import { parseOtelGenAi } from "./otel-genai";
import { expectWellFormed, fixture, kinds, text } from "./testkit";
import { utf8 } from "./text";

const traces = fixture("otel-genai-traces.json");
const collector = fixture("otel-genai-collector.jsonl");

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
      ["call_b2", 0],
      ["call_c3", 1],
    ]);
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

  it("reports bad message JSON and a span without ids by the span's ordinal", () => {
    expect(result.issues).toEqual([
      { line: 9, message: expect.stringMatching(/^gen_ai\.output\.messages is not JSON/) },
      { line: 12, message: "span without traceId and spanId; skipped" },
    ]);
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

  it("ignores non-GenAI spans and reports GenAI operations that map to nothing", () => {
    const http = span("h1", 1, 2, [s("http.request.method", "GET")]);
    const odd = span("o1", 2, 3, [s("gen_ai.operation.name", "teleport")]);
    const emb = span("e1", 3, 4, [s("gen_ai.operation.name", "embeddings")]);
    const result = parseOtelGenAi(doc([http, odd, emb]));
    expect(result.sessions).toEqual([]);
    expect(result.issues).toEqual([
      { line: 2, message: 'gen_ai operation "teleport" with no messages maps to nothing; skipped' },
    ]);
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
