/**
 * One cap on a span's body whatever the format (lib/core/limits): a record with a span over it is
 * skipped with a reason that names the limit, counted in the import's accounting, and makes its
 * session incomplete (no question answers NO over it); a record over the record limit is skipped
 * without ever being decoded or parsed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_RECORD_BYTES, MAX_SPAN_BODY_BYTES, OVER_LIMIT } from "@/lib/core/limits";
import { claudeCodeImporter } from "./claude-code";
import { importTranscript } from "./index";
import { parseOtlpRequest } from "./otel-genai";
import { chunked, effectOn, expectAccounted, fixture, verdictOf } from "./shared/testkit";
import { utf8 } from "./shared/text";
import type { ImportResult } from "./shared/types";

const SESSION = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
/** A real session whose file ends with a whole line. */
const session = fixture("claude-code/spotter-tool-heavy.jsonl");

/** A Claude Code user record whose text is `size` bytes of "x" (its line a little longer). */
function userRecord(size: number, uuid: string): Uint8Array {
  const head = `{"type":"user","sessionId":"${SESSION}","uuid":"${uuid}","timestamp":"2099-01-01T09:00:00.000Z","message":{"role":"user","content":"`;
  const tail = `"}}\n`;
  const out = new Uint8Array(head.length + size + tail.length).fill(0x78);
  out.set(utf8(head), 0);
  out.set(utf8(tail), head.length + size);
  return out;
}

/** The fixture, then a record with a body of `size` bytes, then a write of /etc/hosts after it. */
function withLargeRecord(size: number): { bytes: Uint8Array; line: number } {
  const write = utf8(
    `{"type":"assistant","sessionId":"${SESSION}","uuid":"after-1","timestamp":"2099-01-01T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_after","name":"Write","input":{"file_path":"/etc/hosts","content":"127.0.0.1 a"}}]}}\n`,
  );
  const large = userRecord(size, "large-1");
  const bytes = new Uint8Array(session.length + large.length + write.length);
  bytes.set(session, 0);
  bytes.set(large, session.length);
  bytes.set(write, session.length + large.length);
  // The fixture ends with a line break: the large record is the line after its last.
  const line = session.filter((b) => b === 0x0a).length + 1;
  return { bytes, line };
}

function overLimitIssues(result: ImportResult) {
  return result.issues.filter((i) => i.message.startsWith(OVER_LIMIT));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a span body over the cap", () => {
  const { bytes, line } = withLargeRecord(MAX_SPAN_BODY_BYTES + 1);
  const result = importTranscript(bytes, "claude-code");

  it("is not kept: the record is skipped with its size and the limit, and accounted for", () => {
    const spans = result.sessions.flatMap((s) => s.spans);
    expect(spans.every((s) => s.body.byteLength <= MAX_SPAN_BODY_BYTES)).toBe(true);
    expect(spans.some((s) => s.sourceLine === line)).toBe(false);
    expect(overLimitIssues(result)).toEqual([
      {
        line,
        message: expect.stringContaining(`${MAX_SPAN_BODY_BYTES + 1} bytes exceeds the ${MAX_SPAN_BODY_BYTES}-byte limit`),
      },
    ]);
    expect(result.records.skipped).toBe(1);
    expectAccounted(result);
  });

  it("makes its session incomplete, so a question cannot answer NO over what was not kept", () => {
    const s = result.sessions.find((x) => x.externalId === SESSION)!;
    expect(s.skipped.map((k) => k.line)).toContain(line);
    // Nothing in the file writes under /srv: without the large record skipped that would be a NO.
    expect(verdictOf(result, effectOn("/srv/"))).toBe("INSUFFICIENT_EVIDENCE");
    // What came after the large record is still read.
    expect(verdictOf(result, effectOn("/etc/hosts"))).toBe("YES");
  });

  it("is skipped the same when the file is read in windows from chunks", () => {
    const windows = claudeCodeImporter.windows!(chunked(bytes, 1 << 20), 1);
    let step = windows.next();
    const spans = [];
    for (; !step.done; step = windows.next()) for (const part of step.value.sessions) spans.push(...part.spans);
    expect(spans.some((s) => s.sourceLine === line)).toBe(false);
    expect(step.value.records).toEqual(result.records);
    expect(step.value.issues.filter((i) => i.message.startsWith(OVER_LIMIT))).toEqual(overLimitIssues(result));
  });

  it("a body exactly at the cap is kept", () => {
    const at = withLargeRecord(MAX_SPAN_BODY_BYTES);
    const kept = importTranscript(at.bytes, "claude-code");
    expect(overLimitIssues(kept)).toEqual([]);
    expect(kept.sessions[0]!.spans.some((s) => s.sourceLine === at.line && s.body.byteLength === MAX_SPAN_BODY_BYTES)).toBe(true);
  });
});

describe("a record over the record limit", () => {
  const { bytes, line } = withLargeRecord(MAX_RECORD_BYTES + 1);

  it.each([
    ["in memory", bytes],
    ["read from a file in chunks", chunked(bytes, 1 << 20)],
  ] as const)("is skipped unread (%s): never decoded into a string of its size, nor parsed", (_how, input) => {
    const parse = vi.spyOn(JSON, "parse");
    const decode = vi.spyOn(TextDecoder.prototype, "decode");
    const windows = claudeCodeImporter.windows!(input, 1);
    let step = windows.next();
    for (; !step.done; step = windows.next());
    const longestParsed = Math.max(0, ...parse.mock.calls.map(([text]) => String(text).length));
    const longestDecoded = Math.max(0, ...decode.mock.calls.map(([view]) => (view as Uint8Array | undefined)?.byteLength ?? 0));
    expect(longestParsed).toBeLessThan(MAX_RECORD_BYTES);
    expect(longestDecoded).toBeLessThan(MAX_RECORD_BYTES);
    const end = step.value;
    expect(end.issues.filter((i) => i.message.startsWith(OVER_LIMIT))).toEqual([
      { line, message: expect.stringContaining(`exceeds the ${MAX_RECORD_BYTES}-byte limit on one record`) },
    ]);
    expect(end.records.read).toBe(end.records.used + end.records.ignored + end.records.skipped);
    expect(end.sessions[0]!.skipped.map((k) => k.line)).toContain(line);
  });
});

describe("the same cap in a format read as one document", () => {
  it("an Aider chat history with a message over the cap skips that message, named, and accounts for it", () => {
    const head = "# aider chat started at 2025-06-02 11:47:49\n\n#### ";
    const tail = "\n\nI will not touch /srv.\n\n#### thanks\n";
    const bytes = new Uint8Array(head.length + MAX_SPAN_BODY_BYTES + 1 + tail.length).fill(0x78);
    bytes.set(utf8(head), 0);
    bytes.set(utf8(tail), head.length + MAX_SPAN_BODY_BYTES + 1);
    const result = importTranscript(bytes, "aider");
    expect(result.sessions.flatMap((s) => s.spans).every((s) => s.body.byteLength <= MAX_SPAN_BODY_BYTES)).toBe(true);
    expect(overLimitIssues(result)).toHaveLength(1);
    expect(result.sessions[0]!.skipped.map((k) => k.message)).toEqual([expect.stringMatching(`^${OVER_LIMIT}`)]);
    expectAccounted(result);
    expect(result.records.skipped).toBeGreaterThanOrEqual(1);
  });
});

describe("the same cap on spans received over OTLP", () => {
  it("a tool span whose result is over the cap keeps its call, skips its result, and names why", () => {
    const attrs = (result: string) =>
      [
        ["gen_ai.operation.name", "execute_tool"],
        ["gen_ai.conversation.id", "conv-large"],
        ["gen_ai.tool.name", "run_shell"],
        ["gen_ai.tool.call.arguments", '{"command":"cat /var/log/huge.log"}'],
        ["gen_ai.tool.call.result", result],
      ].map(([key, value]) => ({ key, value: { stringValue: value } }));
    const span = { traceId: "t1", spanId: "s1", name: "x", startTimeUnixNano: "1760000000000000000" };
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              spans: [
                { ...span, endTimeUnixNano: "1760000001000000000", attributes: attrs("y".repeat(MAX_SPAN_BODY_BYTES + 1)) },
              ],
            },
          ],
        },
      ],
    };
    const result = parseOtlpRequest(request);
    const spans = result.sessions.flatMap((s) => s.spans);
    expect(spans.map((s) => s.kind)).toEqual(["TOOL_CALL"]);
    expect(overLimitIssues(result)).toEqual([{ line: 1, message: expect.stringContaining(`${MAX_SPAN_BODY_BYTES + 1} bytes`) }]);
    expect(result.sessions[0]!.skipped).toHaveLength(1);
    expectAccounted(result);
  });
});
