import { describe, expect, it } from "vitest";
import { parseClaudeCode } from "./claude-code";
import { expectWellFormed, fixture, kinds, lineStart, only, text, withByte } from "./testkit";
import { utf8 } from "./text";

const session = fixture("claude-code-session.jsonl");
const continued = fixture("claude-code-continued.jsonl");

describe("Claude Code importer: a full session", () => {
  const result = parseClaudeCode(session);
  const s = only(result);

  it("keys the session by sessionId, with cwd, start and the summary record's title", () => {
    expect(s.externalId).toBe("7d3e9a41-5c2b-4f8e-9a61-0b2c4d6e8f10");
    expect(s.runtime).toBe("claude-code");
    expect(s.cwd).toBe("/home/ines/projects/edge-proxy");
    expect(s.startedAt?.toISOString()).toBe("2025-09-14T08:02:11.398Z");
    expect(s.title).toBe("Serve edge-proxy on 8443 and rotate nginx logs");
    expectWellFormed(result);
  });

  it("maps messages, reasoning, calls, results and the compact summary in file order", () => {
    expect(kinds(s)).toEqual([
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
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
    ]);
    expect(s.spans.map((x) => x.role ?? null).slice(0, 3)).toEqual(["user", "reasoning", "assistant"]);
    expect(text(s.spans[0])).toContain("merci, ça presse ! 🚀");
  });

  it("keeps a tool call's input bytes exactly as the file has them", () => {
    const call = s.spans[3]!;
    expect(call.toolName).toBe("Bash");
    expect(call.sourceId).toBe("toolu_01AbCdEf01");
    // The file escapes é as \u00e9; re-serialising would have lost that.
    expect(text(call)).toBe(
      '{"command":"cat /etc/nginx/nginx.conf && echo \\"lu: caf\\u00e9\\"","description":"Show the nginx config"}',
    );
    expect(call.toolInput).toEqual({
      command: 'cat /etc/nginx/nginx.conf && echo "lu: café"',
      description: "Show the nginx config",
    });
  });

  it("records the write to a system path with its arguments and cwd", () => {
    const write = s.spans[5]!;
    expect(write.toolName).toBe("Write");
    expect(write.toolInput).toMatchObject({ file_path: "/etc/nginx/conf.d/edge-proxy.conf" });
    expect(write.cwd).toBe("/home/ines/projects/edge-proxy");
  });

  it("pairs results with their calls and reads exit codes", () => {
    const results = s.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => [r.toolName, r.exitCode])).toEqual([
      ["Bash", 0],
      ["Write", 0],
      ["Bash", 1],
      ["Bash", 0],
    ]);
    expect(text(results[2])).toMatch(/^Exit code 1\nnginx: \[emerg\]/);
    expect(text(results[3])).toBe("/var/log/nginx/*.log {\n  daily\n  rotate 14\n  compress\n}");
  });

  it("turns the compact boundary and summary into a compaction over the spans before it", () => {
    expect(s.compactions).toEqual([
      { summarySeq: 9, replacedSeqs: [0, 1, 2, 3, 4, 5, 6, 7, 8], occurredAt: new Date("2025-09-14T08:19:40.011Z") },
    ]);
    expect(text(s.spans[9])).toMatch(/^This session is being continued/);
  });

  it("reports the malformed line, the unknown record type and the truncated final line", () => {
    expect(result.issues.map((i) => i.line)).toEqual([12, 20, 21]);
    expect(result.issues[0]!.message).toMatch(/malformed JSON/);
    expect(result.issues[1]!.message).toMatch(/unknown record type "x-experimental-marker"/);
    expect(result.issues[2]!.message).toMatch(/truncated final line/);
  });
});

describe("Claude Code importer: a file that starts at the compact boundary", () => {
  const result = parseClaudeCode(continued);
  const s = only(result);

  it("gives the summary an empty replaced list (its originals are not in the file)", () => {
    expect(kinds(s)).toEqual(["SUMMARY", "TOOL_CALL", "TOOL_RESULT", "MESSAGE"]);
    expect(s.compactions).toEqual([{ summarySeq: 0, replacedSeqs: [], occurredAt: new Date("2025-10-02T14:00:00.120Z") }]);
    expectWellFormed(result);
  });

  it("reads the exit code an error result states", () => {
    expect(s.spans[2]!.exitCode).toBe(2);
    expect(s.spans[2]!.toolName).toBe("Bash");
  });

  it("gives a record without a timestamp the previous record's time", () => {
    expect(s.spans[3]!.occurredAt.toISOString()).toBe("2025-10-02T14:00:05.500Z");
    expect(result.issues.map((i) => i.line)).toEqual([5]);
  });
});

describe("Claude Code importer: damaged input", () => {
  it("reports a line with invalid UTF-8 and keeps the rest", () => {
    const at = lineStart(session, 5) + 60; // inside the assistant text line
    const damaged = withByte(session, at, 0xff);
    const result = parseClaudeCode(damaged);
    expect(result.issues.find((i) => i.line === 5)?.message).toMatch(/invalid UTF-8/);
    expect(only(result).spans).toHaveLength(13);
  });

  it("reports a block of the wrong shape without dropping the line's other blocks", () => {
    const line = JSON.stringify({
      type: "assistant",
      sessionId: "s1",
      timestamp: "2025-01-01T00:00:00Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "ok" }, { type: "tool_use", name: "Bash" }, { type: "hologram" }],
      },
    });
    const result = parseClaudeCode(utf8(`${line}\n`));
    expect(only(result).spans.map((s) => text(s))).toEqual(["ok"]);
    expect(result.issues.map((i) => i.message)).toEqual([
      expect.stringMatching(/^message\.content\[1\]: id: /),
      'message.content[2]: unknown content block type "hologram"; skipped',
    ]);
  });

  it("reports a record whose message has the wrong shape", () => {
    const result = parseClaudeCode(
      utf8('{"type":"user","sessionId":"s1","timestamp":"2025-01-01T00:00:00Z","message":{"content":42}}\n'),
    );
    expect(result.sessions).toEqual([]);
    expect(result.issues[0]).toMatchObject({ line: 1, message: expect.stringMatching(/^message\.content: /) });
  });

  it("reports a record before any timestamp and gives it the next known time", () => {
    const lines = [
      '{"type":"user","sessionId":"s1","message":{"role":"user","content":"first"}}',
      '{"type":"assistant","sessionId":"s1","timestamp":"2025-01-01T00:00:09Z","message":{"role":"assistant","content":[{"type":"text","text":"second"}]}}',
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expect(only(result).spans[0]!.occurredAt.toISOString()).toBe("2025-01-01T00:00:09.000Z");
    expect(result.issues).toEqual([{ line: 1, message: expect.stringMatching(/no timestamp/) }]);
  });

  it("reports a compact boundary that no summary follows", () => {
    const lines = [
      '{"type":"user","sessionId":"s1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}',
      '{"type":"system","subtype":"compact_boundary","sessionId":"s1","timestamp":"2025-01-01T00:00:01Z","compactMetadata":{"trigger":"auto","preTokens":1}}',
    ];
    const result = parseClaudeCode(utf8(`${lines.join("\n")}\n`));
    expect(only(result).compactions).toEqual([]);
    expect(result.issues).toEqual([{ line: 2, message: expect.stringMatching(/no compact summary/) }]);
  });

  it("keeps sessions apart by sessionId", () => {
    const lines = [
      '{"type":"user","sessionId":"a","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"one"}}',
      '{"type":"user","sessionId":"b","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"two"}}',
      '{"type":"assistant","sessionId":"a","timestamp":"2025-01-01T00:00:02Z","message":{"role":"assistant","content":"three"}}',
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expect(result.sessions.map((s) => [s.externalId, s.spans.map((x) => x.seq)])).toEqual([
      ["a", [0, 1]],
      ["b", [0]],
    ]);
  });

  it("gives a subagent's sidechain records their own session", () => {
    const lines = [
      '{"type":"user","sessionId":"a","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"main"}}',
      '{"type":"user","sessionId":"a","isSidechain":true,"agentId":"f00d","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"sub task"}}',
      '{"type":"user","sessionId":"a","isSidechain":true,"timestamp":"2025-01-01T00:00:02Z","message":{"role":"user","content":"older inline sidechain"}}',
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expect(result.sessions.map((s) => [s.externalId, s.spans.length])).toEqual([
      ["a", 2],
      ["a/agent-f00d", 1],
    ]);
  });
});
