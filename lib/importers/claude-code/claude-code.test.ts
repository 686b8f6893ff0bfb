import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeImporter } from "./index";
import { detectFormat, importTranscript } from "../index";
import {
  checkedAgainstWindows,
  expectAccounted,
  expectWellFormed,
  fixture,
  kinds,
  lineStart,
  only,
  parseBothWays,
  text,
  verdictOf,
  withByte,
} from "../shared/testkit";
import { utf8 } from "../shared/text";
import type { ImportedSpan } from "../shared/types";

/** Every parse below is also read in the smallest windows, which must give the same result. */
const parseClaudeCode = checkedAgainstWindows(claudeCodeImporter);

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
      "MESSAGE",
    ]);
    expect(s.spans[13]!.role).toBe("system");
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

  it("pairs results with their calls and reads exit codes (a shell's success is exit 0; other tools state none)", () => {
    const results = s.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => [r.toolName, r.exitCode])).toEqual([
      ["Bash", 0],
      ["Write", undefined],
      ["Bash", 1],
      ["Bash", 0],
    ]);
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.toolName, c.outcome, c.exitCode])).toEqual([
      ["Bash", "SUCCEEDED", 0],
      ["Write", "SUCCEEDED", undefined],
      ["Bash", "FAILED", 1],
      ["Bash", "SUCCEEDED", 0],
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
    expect(only(result).spans).toHaveLength(14);
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

// Real sessions (see fixtures/claude-code/SOURCES.md).
const progressFile = fixture("claude-code/spotter-subagent-progress.jsonl");
const toolHeavy = fixture("claude-code/spotter-tool-heavy.jsonl");
const compactionAgent = fixture("claude-code/spotter-agent-acompact-70d8e7.jsonl");
const agentFile = fixture("claude-code/spotter-agent-aac57f5.jsonl");
const PARENT = "491e126e-1e71-469c-ade2-fcc8af567c74";
/** The subagent's `ls -la …/.beads/` call (line 50): only the subagent ran it. */
const beadsListing = (span: ImportedSpan) =>
  span.kind === "TOOL_CALL" && JSON.stringify(span.toolInput ?? null).includes("ls -la /home/marco/projects/spotter/.beads/");

describe("Claude Code importer: a real session whose Task subagent reports through progress records", () => {
  const result = importTranscript(progressFile);
  const s = only(result);
  const subagent = s.spans.filter((x) => x.agentId !== undefined);

  it("imports by detection with every record accounted for", () => {
    expect(detectFormat(progressFile)).toBe("claude-code");
    expectWellFormed(result);
    expect(result.records).toEqual({
      read: 96,
      used: 67,
      ignored: 29,
      skipped: 0,
      ignoredByType: { "file-history-snapshot": 3, "progress:hook_progress": 25, "system:stop_hook_summary": 1 },
    });
    expect(result.issues).toEqual([]);
    expect(s.externalId).toBe(PARENT);
  });

  it("keeps the subagent's 19 progress records as spans of the parent session, with its agent id and type", () => {
    expect(new Set(subagent.map((x) => x.sourceLine)).size).toBe(19);
    expect(new Set(subagent.map((x) => `${x.agentId}/${x.agentType}`))).toEqual(new Set(["afb92ff/Plan"]));
    const calls = subagent.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.sourceLine, c.toolName, c.outcome, c.exitCode ?? null])).toEqual([
      [38, "Read", "FAILED", null],
      [40, "Read", "NOT_RUN", null],
      [42, "Bash", "NOT_RUN", null],
      [44, "Bash", "SUCCEEDED", 0],
      [46, "Bash", "SUCCEEDED", 0],
      [48, "Read", "SUCCEEDED", null],
      [50, "Bash", "SUCCEEDED", 0],
      [52, "Read", "SUCCEEDED", null],
      [54, "Read", "SUCCEEDED", null],
    ]);
    // The nested message's uuid and the tool_use id: the ids the subagent's own file holds.
    expect(calls[6]!.sourceId).toBe("toolu_015JLaKRmvYneJjpKF3G8pZn");
    const prompt = subagent.find((x) => x.sourceLine === 37)!;
    expect([prompt.kind, prompt.role, prompt.sourceId]).toEqual(["MESSAGE", "user", "a2bb9623-3017-492e-b392-36b3dcaac2e3"]);
    // In file order, between the Task call and its result.
    const task = s.spans.find((x) => x.toolName === "Task")!;
    expect(task.outcome).toBe("SUCCEEDED");
    expect(subagent.every((x) => x.seq > task.seq)).toBe(true);
  });

  it("answers YES to a question only the subagent's work matches (it answered NO while progress was dropped)", () => {
    expect(verdictOf(result, beadsListing)).toBe("YES");
    expect(s.spans.find(beadsListing)?.agentId).toBe("afb92ff");
  });

  it("does not take the interrupt notice for the session's title", () => {
    expect(s.title).not.toMatch(/^\[Request interrupted/);
  });
});

describe("Claude Code importer: a real 1.0 session whose subagents wrote into the parent's file", () => {
  const inline = fixture("claude-code/kimuson-1.0.98-inline-sidechains-fe5e1c67.jsonl.gz");
  const { whole: result } = parseBothWays(claudeCodeImporter, inline);
  const s = only(result);
  const FIRST = "6690d10e-f521-4ac0-800d-e5eb7a2d8072";

  it("credits each Task's sidechain to its subagent, named by the chain's first record, typed by the Task's prompt", () => {
    expectWellFormed(result);
    expect(result.records).toEqual({ read: 438, used: 438, ignored: 0, skipped: 0, ignoredByType: {} });
    const spansBy = new Map<string, number>();
    for (const x of s.spans) {
      const agent = `${x.agentId ?? "main"}/${x.agentType ?? ""}`;
      spansBy.set(agent, (spansBy.get(agent) ?? 0) + 1);
    }
    expect([...spansBy]).toEqual([
      ["main/", 32],
      [`${FIRST}/general-purpose`, 21],
      ["60dade70-20bb-4edb-9dad-9f08267e0cc2/general-purpose", 86],
      ["f4546a51-ea10-47e0-b4e0-76802974f8a9/general-purpose", 98],
      ["0d692b0f-17cb-4fd0-94fb-215dabcef803/general-purpose", 65],
      ["f4ab2bf6-d642-431a-85cb-66691f24c404/general-purpose", 135],
    ]);
    // Each subagent's first span is its Task's prompt, the record its agentId names.
    const prompt = s.spans.find((x) => x.sourceId === FIRST)!;
    expect([prompt.sourceLine, prompt.role, prompt.agentId]).toEqual([16, "user", FIRST]);
    expect(text(prompt)).toMatch(/^Create React components for the TODO app/);
  });

  it("keeps the person's prompts and the title the main agent's, and the subagent's commands the subagent's", () => {
    const people = s.spans.filter((x) => x.kind === "MESSAGE" && x.role === "user" && x.agentId === undefined);
    expect(people.map((x) => x.sourceLine)).toEqual([2, 3, 434]);
    expect(s.title).not.toMatch(/^Create React components/);
    const commands = s.spans.filter((x) => x.kind === "TOOL_CALL" && x.sourceLine <= 20 && x.toolName === "Bash");
    expect(commands.map((c) => [c.sourceLine, JSON.stringify(c.toolInput), c.agentId])).toEqual([
      [18, JSON.stringify({ command: "ls -la", description: "Check current directory structure" }), FIRST],
      [20, expect.stringContaining("mkdir -p components"), FIRST],
    ]);
  });
});

describe("Claude Code importer: 1.0 sidechains in the parent's file, edge cases", () => {
  const rec = (uuid: string, parentUuid: string | null, content: unknown, type = "user") =>
    JSON.stringify({
      type,
      uuid,
      parentUuid,
      sessionId: "s",
      isSidechain: true,
      timestamp: "2025-08-01T10:00:00Z",
      message: { role: type, content },
    });
  const task = (id: string, prompt: string, subagentType?: string) =>
    JSON.stringify({
      type: "assistant",
      uuid: `m-${id}`,
      parentUuid: null,
      sessionId: "s",
      isSidechain: false,
      timestamp: "2025-08-01T10:00:00Z",
      message: {
        role: "assistant",
        content: [
          {
            type: "tool_use",
            id,
            name: "Task",
            input: { description: "d", prompt, ...(subagentType ? { subagent_type: subagentType } : {}) },
          },
        ],
      },
    });
  const notice = (uuid: string, parentUuid: string, fields: object) =>
    JSON.stringify({ type: "system", uuid, parentUuid, sessionId: "s", isSidechain: true, ...fields });
  /** The parse of `lines`, and each span of a subagent as [sourceId, agentId, agentType]. */
  const agentsOf = (lines: string[]) => {
    const result = parseClaudeCode(utf8(lines.join("\n")));
    const agents = only(result)
      .spans.filter((x) => x.agentId)
      .map((x) => [x.sourceId, x.agentId, x.agentType ?? null]);
    return { result, agents };
  };

  it("matches two Tasks of the same prompt in order, types a Task naming none general-purpose, and opens an agent where a parent is missing", () => {
    const lines = [
      task("t1", "same prompt", "code-reviewer"),
      task("t2", "same prompt", "test-runner"),
      task("t3", "other prompt"),
      rec("a1", null, "same prompt"),
      rec("a2", "a1", [{ type: "text", text: "working" }], "assistant"),
      rec("b1", null, [{ type: "text", text: "same prompt" }]),
      rec("c1", null, "other prompt"),
      rec("d2", "gone", [{ type: "text", text: "orphan" }], "assistant"),
    ];
    const { result, agents } = agentsOf(lines);
    expect(agents).toEqual([
      ["a1", "a1", "code-reviewer"],
      ["a2", "a1", "code-reviewer"],
      ["b1", "b1", "test-runner"],
      ["c1", "c1", "general-purpose"],
      ["d2", "d2", null],
    ]);
    // The orphan's missing parent is still reported.
    expect(only(result).skipped.map((x) => [x.line, x.message])).toEqual([
      [8, expect.stringContaining("parentUuid gone names no record")],
    ]);
  });

  it("follows a chain through links that give no span of their own, and credits a sidechain's system notice to its subagent", () => {
    const lines = [
      task("t1", "go", "code-reviewer"),
      rec("a1", null, "go"),
      rec("a2", "a1", [{ type: "text", text: "working" }], "assistant"),
      // A hook notice 1.0 writes into the chain, without a subtype: skipped, but still a link.
      notice("s3", "a2", { content: "PostToolUse:Bash completed" }),
      rec("a4", "s3", [{ type: "text", text: "more" }], "assistant"),
      // A message that cannot be read: skipped, but still a link.
      rec("a5", "a4", 42, "assistant"),
      notice("s6", "a5", { subtype: "informational", content: "note" }),
      rec("a7", "s6", [{ type: "text", text: "done" }], "assistant"),
    ];
    const { result, agents } = agentsOf(lines);
    expect(agents).toEqual([
      ["a1", "a1", "code-reviewer"],
      ["a2", "a1", "code-reviewer"],
      ["a4", "a1", "code-reviewer"],
      ["s6", "a1", "code-reviewer"],
      ["a7", "a1", "code-reviewer"],
    ]);
    expect(only(result).skipped.map((x) => x.line)).toEqual([4, 6]);
  });
});

describe("Claude Code importer: a real compaction agent's file", () => {
  // Claude Code runs a compaction as a forked agent (`agent-acompact-<id>.jsonl`): the file opens
  // with the parent session's latest injected user records, each still naming its parent in the
  // parent session, then the summary prompt and the summary the model wrote.
  const result = importTranscript(compactionAgent);
  const s = only(result);

  it("is complete: the copied records' parents live in the parent session, not missing from this file", () => {
    expectWellFormed(result);
    expect(result.records).toEqual({ read: 15, used: 15, ignored: 0, skipped: 0, ignoredByType: {} });
    expect(result.issues).toEqual([]);
    expect(s.skipped).toEqual([]);
    expect(s.externalId).toBe("fa812bfe-b295-4cca-9c2f-fdf01028cb46/agent-acompact-70d8e7");
    expect(s.spans.every((x) => x.agentId === "acompact-70d8e7")).toBe(true);
  });

  it("keeps the prompt and the summary the model wrote", () => {
    expect(kinds(s).slice(-2)).toEqual(["MESSAGE", "MESSAGE"]);
    expect(text(s.spans.at(-2))).toMatch(/^Your task is to create a detailed summary of the conversation so far/);
    expect(s.spans.at(-1)!.role).toBe("assistant");
    expect(text(s.spans.at(-1))).toContain("<analysis>");
  });

  it("still detects a deleted summary prompt: the answer's parent is missing", () => {
    const lines = new TextDecoder().decode(compactionAgent).split("\n");
    lines.splice(13, 1); // line 14: the summary prompt
    const damaged = importTranscript(utf8(lines.join("\n")));
    expectWellFormed(damaged);
    expect(damaged.issues).toEqual([{ line: 14, message: expect.stringMatching(/^parentUuid \S+ names no record in the file/) }]);
    expect(only(damaged).skipped).toHaveLength(1);
  });
});

describe("Claude Code importer: more real files", () => {
  it("a session with a background command: its call stays UNKNOWN, queue operations are ignored", () => {
    const result = importTranscript(toolHeavy);
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 39, used: 24, ignored: 15, skipped: 0 });
    expect(result.records.ignoredByType).toEqual({
      "file-history-snapshot": 3,
      "progress:hook_progress": 10,
      "queue-operation": 2,
    });
    const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.slice(0, 2).map((c) => [c.toolName, c.outcome, c.exitCode ?? null])).toEqual([
      ["Bash", "UNKNOWN", null],
      ["Bash", "SUCCEEDED", 0],
    ]);
  });

  it("a subagent's own file is its own session, every span naming the agent", () => {
    const result = importTranscript(agentFile);
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 40, used: 28, ignored: 12, skipped: 0 });
    const s = only(result);
    expect(s.externalId).toBe("ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5");
    expect(s.spans.every((x) => x.agentId === "aac57f5")).toBe(true);
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls).toHaveLength(12);
    expect(calls.every((c) => c.outcome === "SUCCEEDED")).toBe(true);
  });
});

/** One JSON line of a hand-written record (edge cases only). */
const rec = (fields: Record<string, unknown>) =>
  JSON.stringify({ sessionId: "s1", timestamp: "2025-01-01T00:00:00Z", ...fields });
const call = (id: string, name: string, input: unknown, extra: Record<string, unknown> = {}) =>
  rec({ type: "assistant", ...extra, message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } });
const answer = (id: string, content: unknown, extra: Record<string, unknown> = {}, isError?: boolean) =>
  rec({
    type: "user",
    ...extra,
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content, ...(isError === undefined ? {} : { is_error: isError }) }],
    },
  });

describe("Claude Code importer: outcomes (hand-written edge cases)", () => {
  const lines = [
    call("t1", "Edit", { file_path: "/etc/hosts" }),
    answer(
      "t1",
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
      {},
      true,
    ),
    call("t2", "Bash", { command: "rm -rf build" }),
    answer("t2", [{ type: "text", text: "[Request interrupted by user for tool use]" }], {}, true),
    call("t3", "Bash", { command: "sudo systemctl restart nginx" }),
    answer("t3", "Permission to use Bash with command sudo systemctl restart nginx has been denied.", {}, true),
    call("t4", "Bash", { command: "sleep 100" }),
    answer("t4", "partial output", { toolUseResult: { stdout: "partial output", stderr: "", interrupted: true } }),
    call("t5", "mcp__db__query", { sql: "delete from t" }),
    answer("t5", "done", { toolUseResult: { exitCode: 3 } }),
    call("t6", "Write", { file_path: "/etc/motd" }),
    call("t7", "Bash", { command: "make" }),
    answer("t7", "[Tool result missing due to internal error]", {}, true),
    call("t8", "Bash", { command: "false" }),
    answer("t8", "Exit code 1", {}, true),
  ];
  const result = parseClaudeCode(utf8(lines.join("\n")));
  const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");

  it("reads rejections, denials, interruptions, stated exit codes and missing results", () => {
    expectWellFormed(result);
    expect(calls.map((c) => [c.sourceId, c.outcome, c.exitCode ?? null])).toEqual([
      ["t1", "DECLINED", null],
      // A tool's AbortError text: the call had begun when the user interrupted it.
      ["t2", "FAILED", null],
      ["t3", "DECLINED", null],
      ["t4", "FAILED", null],
      ["t5", "FAILED", 3],
      ["t6", "UNKNOWN", null],
      ["t7", "UNKNOWN", null],
      ["t8", "FAILED", 1],
    ]);
  });
});

describe("Claude Code importer: denials and exit codes as 2.1.197 writes them (hand-written edge cases)", () => {
  // A refused call's result: the permission decision's message as an error tool_result, and
  // `toolUseResult` "Error: <message>" (toolDenialKind only where the runtime enables it).
  const denied = (id: string, message: string, extra: Record<string, unknown> = {}) =>
    answer(id, message, { toolUseResult: `Error: ${message}`, sourceToolAssistantUUID: `a-${id}`, ...extra }, true);
  const bash = (fields: Record<string, unknown>) => ({
    stdout: "",
    stderr: "",
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
    ...fields,
  });
  const lines = [
    call("d1", "Edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b" }),
    denied("d1", "Permission to edit /etc/hosts has been denied."),
    call("d2", "Bash", { command: "rm -rf /var/lib/app" }),
    denied("d2", "Permission to use Bash with rm -rf:* has been denied."),
    call("d3", "Bash", { command: "sudo apt-get install nginx" }),
    denied("d3", "Permission for this action was denied by the Claude Code auto mode classifier. Reason: installs a package"),
    call("d4", "Write", { file_path: "/etc/cron.d/job", content: "* * * * * x" }),
    denied("d4", "PreToolUse:Write hook error: writes under /etc are blocked"),
    call("d5", "Bash", { command: "systemctl restart nginx" }),
    denied("d5", "Execution stopped by PreToolUse hook: maintenance window"),
    call("d6", "Agent", { description: "d", prompt: "p", subagent_type: "deployer" }),
    denied("d6", "Agent type 'deployer' has been denied by permission rule 'Agent(deployer)' from projectSettings."),
    call("d7", "WebFetch", { url: "https://example.com/x", prompt: "p" }),
    denied("d7", "WebFetch was denied by this session's URL provenance check. Approve to allow fetching this URL."),
    call("d8", "Bash", { command: "curl -X DELETE https://api/x" }),
    denied("d8", "Not now", { toolDenialKind: "user-rejected" }),
    call("g1", "Bash", { command: "grep -r secret /etc/app" }),
    answer("g1", "", { toolUseResult: bash({ returnCodeInterpretation: "No matches found" }) }, false),
    call("g2", "Bash", { command: "make deploy" }),
    answer("g2", "partial\n<error>Command was aborted before completion</error>", {
      toolUseResult: bash({
        stdout: "partial",
        interrupted: true,
        returnCodeInterpretation: "Command failed with exit code 130",
      }),
    }),
  ];
  const result = parseClaudeCode(utf8(lines.join("\n")));
  const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");

  it("reads every refusal the runtime writes (rules, auto mode, hooks, agent types, URL checks) as DECLINED", () => {
    expectWellFormed(result);
    expect(calls.slice(0, 8).map((c) => [c.sourceId, c.outcome])).toEqual(
      ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8"].map((id) => [id, "DECLINED"]),
    );
  });

  it("takes a shell's exit code from its return-code interpretation: grep's 1 is no match, not exit 0", () => {
    expect(calls.slice(8).map((c) => [c.sourceId, c.outcome, c.exitCode ?? null])).toEqual([
      ["g1", "SUCCEEDED", 1],
      ["g2", "FAILED", 130],
    ]);
  });
});

describe("Claude Code importer: server-side and MCP connector tool blocks (hand-written edge cases)", () => {
  const lines = [
    rec({ type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "look up the config" } }),
    rec({
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      message: {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "srvtoolu_1", name: "advisor", input: {} },
          {
            type: "advisor_tool_result",
            tool_use_id: "srvtoolu_1",
            content: { type: "advisor_result", text: "Read /etc/app.yaml first" },
          },
          { type: "server_tool_use", id: "srvtoolu_2", name: "web_search", input: { query: "app.yaml schema" } },
          {
            type: "web_search_tool_result",
            tool_use_id: "srvtoolu_2",
            content: { type: "web_search_tool_result_error", error_code: "max_uses_exceeded" },
          },
          { type: "mcp_tool_use", id: "mcptoolu_1", name: "query", server_name: "db", input: { sql: "delete from t" } },
          { type: "mcp_tool_result", tool_use_id: "mcptoolu_1", is_error: false, content: [{ type: "text", text: "3 rows" }] },
        ],
      },
    }),
  ];
  const result = parseClaudeCode(utf8(lines.join("\n")));

  it("keeps each server tool call and its result, paired, with the result's outcome", () => {
    expectWellFormed(result);
    expect(result.issues).toEqual([]);
    expect(result.records).toMatchObject({ read: 2, used: 2, skipped: 0 });
    const s = only(result);
    expect(s.spans.filter((x) => x.kind === "TOOL_CALL").map((c) => [c.toolName, c.sourceId, c.outcome, text(c)])).toEqual([
      ["advisor", "srvtoolu_1", "SUCCEEDED", "{}"],
      ["web_search", "srvtoolu_2", "FAILED", '{"query":"app.yaml schema"}'],
      // Named as Claude Code names its own MCP tools, so the tool's bare name is not read as a built-in's.
      ["mcp__db__query", "mcptoolu_1", "SUCCEEDED", '{"sql":"delete from t"}'],
    ]);
    expect(s.spans.filter((x) => x.kind === "TOOL_RESULT").map((r) => [r.sourceId, r.toolName, text(r)])).toEqual([
      ["srvtoolu_1", "advisor", '{"type":"advisor_result","text":"Read /etc/app.yaml first"}'],
      ["srvtoolu_2", "web_search", '{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}'],
      ["mcptoolu_1", "mcp__db__query", "3 rows"],
    ]);
  });

  it("makes the API's compaction block a summary of what came before, and ignores a container upload", () => {
    const more = parseClaudeCode(
      utf8(
        [
          ...lines,
          rec({
            type: "assistant",
            uuid: "a2",
            parentUuid: "a1",
            message: {
              role: "assistant",
              content: [
                { type: "compaction", content: "Earlier: deleted rows from t; advisor said read /etc/app.yaml" },
                { type: "container_upload", file_id: "file_01" },
                { type: "text", text: "continuing" },
              ],
            },
          }),
        ].join("\n"),
      ),
    );
    expectWellFormed(more);
    expect(more.issues).toEqual([]);
    expect(more.records).toMatchObject({ read: 3, used: 3, skipped: 0 });
    const s = only(more);
    expect(s.spans.slice(-2).map((x) => [x.kind, text(x)])).toEqual([
      ["SUMMARY", "Earlier: deleted rows from t; advisor said read /etc/app.yaml"],
      ["MESSAGE", "continuing"],
    ]);
    expect(s.compactions.map((c) => [c.summarySeq, c.replacedSeqs])).toEqual([[7, [0, 1, 2, 3, 4, 5, 6]]]);
  });
});

describe("Claude Code importer: 2.1.197's other record types (hand-written edge cases)", () => {
  const sid = "s1";
  const lines = [
    rec({ type: "user", uuid: "u1", parentUuid: null, message: { role: "user", content: "hi" } }),
    JSON.stringify({ type: "relocated", sessionId: sid, relocatedCwd: "/srv/app" }),
    JSON.stringify({
      type: "frame-link",
      sessionId: sid,
      path: "index.html",
      frameUrl: "https://f/x",
      timestamp: "2025-01-01T00:00:01Z",
    }),
    JSON.stringify({ type: "bridge-session", sessionId: sid, bridgeSessionId: "b1", lastSequenceNum: 4 }),
    JSON.stringify({ type: "isolation-latch", side: "sandboxed", sessionId: sid }),
    JSON.stringify({ type: "ended-by-model", sessionId: sid }),
    JSON.stringify({ type: "fork-context-ref", agentId: "a1", parentSessionId: sid, parentLastUuid: "u1", contextLength: 1 }),
    JSON.stringify({ type: "marble-origami-reset", sessionId: sid, reason: "compact" }),
    rec({ type: "system", subtype: "memory_saved", writtenPaths: ["/home/u/.claude/memory/app.md"], uuid: "m1", isMeta: false }),
    rec({
      type: "system",
      subtype: "file_snapshot",
      content: "File snapshot",
      level: "info",
      isMeta: true,
      uuid: "f1",
      snapshotFiles: [{ key: "plan", path: "/home/u/.claude/plans/p.md", content: "1. edit /etc/hosts" }],
    }),
    rec({
      type: "system",
      subtype: "model_fallback",
      content: "Switched to Sonnet because Opus is not available",
      level: "warning",
      trigger: "model_not_found",
      originalModel: "opus",
      fallbackModel: "sonnet",
      isMeta: false,
      uuid: "mf1",
    }),
    JSON.stringify({ type: "marble-origami-commit", sessionId: sid, collapseId: "c1" }),
  ];
  const result = parseClaudeCode(utf8(lines.join("\n")));

  it("ignores the metadata records by name and keeps the runtime's notices that name files", () => {
    expect(result.records).toEqual({
      read: 12,
      used: 4,
      ignored: 7,
      skipped: 1,
      ignoredByType: {
        relocated: 1,
        "frame-link": 1,
        "bridge-session": 1,
        "isolation-latch": 1,
        "ended-by-model": 1,
        "fork-context-ref": 1,
        "marble-origami-reset": 1,
      },
    });
    const s = only(result);
    expect(s.spans.map((x) => [x.role, text(x)])).toEqual([
      ["user", "hi"],
      ["system", '["/home/u/.claude/memory/app.md"]'],
      ["system", '[{"key":"plan","path":"/home/u/.claude/plans/p.md","content":"1. edit /etc/hosts"}]'],
      ["system", "Switched to Sonnet because Opus is not available"],
    ]);
  });

  it("skips a context-collapse commit (it stands for a summary it cannot place) with its reason", () => {
    expect(only(result).skipped).toEqual([{ line: 12, message: expect.stringMatching(/^context-collapse commit/) }]);
  });
});

describe("Claude Code importer: a partial compaction that keeps recent messages (hand-written edge cases)", () => {
  // 2.1.197 leaves the messages a compaction keeps where they are (before the boundary) and names
  // them in the boundary's compactMetadata; the summary replaced only the others.
  const say = (uuid: string, parentUuid: string | null, role: "user" | "assistant", content: string) =>
    rec({ type: role, uuid, parentUuid, message: { role, content: [{ type: "text", text: content }] } });
  const file = (metadata: Record<string, unknown>) =>
    parseClaudeCode(
      utf8(
        [
          say("u1", null, "user", "set up nginx"),
          say("a1", "u1", "assistant", "edited /etc/nginx/nginx.conf"),
          say("u2", "a1", "user", "now rotate the logs"),
          say("a2", "u2", "assistant", "wrote /etc/logrotate.d/nginx"),
          rec({
            type: "system",
            subtype: "compact_boundary",
            content: "Conversation compacted",
            isMeta: false,
            uuid: "b1",
            parentUuid: null,
            logicalParentUuid: "a2",
            level: "info",
            compactMetadata: { trigger: "manual", preTokens: 1200, ...metadata },
          }),
          rec({
            type: "user",
            uuid: "sum1",
            parentUuid: "b1",
            isCompactSummary: true,
            isVisibleInTranscriptOnly: true,
            message: { role: "user", content: "This session is being continued from a previous conversation..." },
          }),
        ].join("\n"),
      ),
    );

  it("leaves the messages the boundary's preservedMessages lists out of what the summary replaced", () => {
    const result = file({
      preservedSegment: { headUuid: "u2", anchorUuid: "sum1", tailUuid: "a2" },
      preservedMessages: { anchorUuid: "sum1", uuids: ["u2", "a2"], allUuids: ["u2", "a2"] },
    });
    expectWellFormed(result);
    expect(only(result).compactions.map((c) => [c.summarySeq, c.replacedSeqs])).toEqual([[4, [0, 1]]]);
  });

  it("walks a preservedSegment from its tail to its head by parentUuid when no list is given", () => {
    const result = file({ preservedSegment: { headUuid: "u2", anchorUuid: "sum1", tailUuid: "a2" } });
    expectWellFormed(result);
    expect(only(result).compactions.map((c) => [c.summarySeq, c.replacedSeqs])).toEqual([[4, [0, 1]]]);
  });
});

describe("Claude Code importer: calls the user interrupted, as 2.1.197 writes them (hand-written edge cases)", () => {
  const CANCEL =
    "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";
  const REJECT =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const lines = [
    // Esc while the call was validated, awaited permission, or ran (the runtime's cancelled-tool result).
    call("x1", "Bash", { command: "terraform apply" }),
    answer("x1", CANCEL, { toolUseResult: CANCEL, sourceToolAssistantUUID: "a1" }, true),
    // Esc while the streaming executor had queued or started the call.
    call("x2", "Write", { file_path: "/etc/app.yaml", content: "x" }),
    answer("x2", REJECT, { toolUseResult: "User rejected tool use", sourceToolAssistantUUID: "a2" }, true),
    // A running tool that stopped on the abort (its AbortError).
    call("x3", "WebFetch", { url: "https://example.com", prompt: "p" }),
    answer(
      "x3",
      "[Request interrupted by user for tool use]",
      { toolUseResult: "Error: [Request interrupted by user for tool use]", sourceToolAssistantUUID: "a3" },
      true,
    ),
    // A PreToolUse hook that stopped the call: refused before it ran.
    call("x4", "Bash", { command: "git push --force" }),
    answer("x4", CANCEL, { toolUseResult: "Error: force pushes are not allowed", sourceToolAssistantUUID: "a4" }, true),
    // The user rejected it at the permission prompt.
    call("x5", "Bash", { command: "rm -rf dist" }),
    answer("x5", REJECT, { toolUseResult: `Error: ${REJECT}`, sourceToolAssistantUUID: "a5" }, true),
  ];
  const result = parseClaudeCode(utf8(lines.join("\n")));

  it("reads an abort as UNKNOWN (it may have run), a tool stopped mid-run as FAILED, a refusal as DECLINED", () => {
    expectWellFormed(result);
    expect(
      only(result)
        .spans.filter((x) => x.kind === "TOOL_CALL")
        .map((c) => [c.sourceId, c.outcome]),
    ).toEqual([
      ["x1", "UNKNOWN"],
      ["x2", "UNKNOWN"],
      ["x3", "FAILED"],
      ["x4", "DECLINED"],
      ["x5", "DECLINED"],
    ]);
  });
});

describe("Claude Code importer: accounting (hand-written edge cases)", () => {
  it("ignores listed system subtypes and progress types by name, skips others against their session", () => {
    const lines = [
      rec({ type: "user", message: { role: "user", content: "hi" } }),
      rec({ type: "system", subtype: "api_error", level: "error", retryAttempt: 1 }),
      rec({ type: "system", subtype: "turn_duration", durationMs: 5 }),
      rec({ type: "system", subtype: "local_command", content: "<local-command-stdout>ok</local-command-stdout>" }),
      rec({ type: "system", subtype: "hologram", content: "?" }),
      rec({ type: "progress", data: { type: "bash_progress", output: "x" }, toolUseID: "t", parentToolUseID: "t" }),
      rec({ type: "progress", data: { type: "repl_tool_call", phase: "start", toolName: "Bash", toolInput: {} } }),
      rec({ type: "attachment", attachment: { type: "edited_text_file", filename: "/etc/hosts", snippet: "10.0.0.7 db" } }),
      rec({ type: "permission-mode", permissionMode: "default" }),
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expectWellFormed(result);
    expect(result.records).toEqual({
      read: 9,
      used: 3,
      ignored: 4,
      skipped: 2,
      ignoredByType: { "system:api_error": 1, "system:turn_duration": 1, "progress:bash_progress": 1, "permission-mode": 1 },
    });
    const s = only(result);
    expect(s.skipped.map((i) => i.line)).toEqual([5, 7]);
    expect(s.spans.map((x) => [x.role, text(x)])).toEqual([
      ["user", "hi"],
      ["system", "<local-command-stdout>ok</local-command-stdout>"],
      ["attachment", '{"type":"edited_text_file","filename":"/etc/hosts","snippet":"10.0.0.7 db"}'],
    ]);
  });

  it("takes the subagent's type from the Task call and does not add a sidechain copy of a progress message twice", () => {
    const nested = {
      type: "assistant",
      uuid: "n1",
      timestamp: "2025-01-01T00:00:02Z",
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: "s1", name: "Write", input: { file_path: "/etc/cron.d/job" } }],
      },
    };
    const lines = [
      call(
        "task1",
        "Task",
        { description: "d", prompt: "p", subagent_type: "general-purpose" },
        { uuid: "u1", parentUuid: null },
      ),
      rec({
        type: "progress",
        uuid: "p1",
        parentUuid: "u1",
        parentToolUseID: "task1",
        toolUseID: "agent_msg_1",
        data: { type: "agent_progress", agentId: "abc", prompt: "p", message: nested },
      }),
      rec({ type: "assistant", isSidechain: true, agentId: "abc", uuid: "n1", parentUuid: null, message: nested.message }),
      answer("task1", "done", { uuid: "u2", parentUuid: "p1" }),
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 4, used: 4, skipped: 0 });
    expect(result.sessions.map((x) => x.externalId)).toEqual(["s1"]);
    const write = only(result).spans.find((x) => x.toolName === "Write")!;
    expect([write.agentId, write.agentType, write.sourceId, write.outcome]).toEqual(["abc", "general-purpose", "s1", "UNKNOWN"]);
  });
});

describe("Claude Code importer: parent chain", () => {
  it("skips against the session a record whose parent was deleted", () => {
    const lines = new TextDecoder().decode(progressFile).split("\n");
    lines.splice(49, 1); // line 50: the subagent's `ls -la …/.beads/` call
    const result = importTranscript(utf8(lines.join("\n")));
    expectWellFormed(result);
    // Its result, on the next line (now line 50), has lost both its parent and its call.
    expect(result.issues).toEqual([
      { line: 50, message: expect.stringMatching(/^tool_result for call toolu_\S+, which is not in the file/) },
      { line: 50, message: expect.stringMatching(/^parentUuid c02dbf0e-\S+ names no record in the file/) },
    ]);
    expect(only(result).skipped).toHaveLength(2);
    expect(verdictOf(result, beadsListing)).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("flags a file that starts mid-chain: the records before its first are missing", () => {
    const lines = [
      rec({ type: "user", uuid: "a", parentUuid: "from-an-earlier-file", message: { role: "user", content: "go on" } }),
      rec({ type: "assistant", uuid: "b", parentUuid: "a", message: { role: "assistant", content: "going on" } }),
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expectWellFormed(result);
    expect(result.issues).toEqual([
      {
        line: 1,
        message: expect.stringMatching(
          /^the file starts after its session began: the first record's parentUuid from-an-earlier-file/,
        ),
      },
    ]);
    expect(only(result).skipped).toHaveLength(1);
    // The record is still read: its span is kept, the session marked incomplete at its start.
    expect(result.records).toMatchObject({ read: 2, used: 2, skipped: 0 });
  });

  it("does not flag a compact boundary's logical parent, or a subagent's root", () => {
    const lines = [
      rec({ type: "user", uuid: "a", parentUuid: null, message: { role: "user", content: "go on" } }),
      rec({
        type: "system",
        subtype: "compact_boundary",
        uuid: "b",
        parentUuid: null,
        logicalParentUuid: "gone",
        content: "Conversation compacted",
        compactMetadata: { trigger: "auto", preTokens: 1 },
      }),
      rec({ type: "user", uuid: "c", parentUuid: "b", isCompactSummary: true, message: { role: "user", content: "Summary" } }),
      rec({
        type: "user",
        uuid: "d",
        parentUuid: null,
        isSidechain: true,
        agentId: "x1",
        message: { role: "user", content: "sub" },
      }),
    ];
    const result = parseClaudeCode(utf8(lines.join("\n")));
    expectWellFormed(result);
    expect(result.issues).toEqual([]);
    expect(result.records.skipped).toBe(0);
  });
});

describe("Claude Code importer: corrupting a real file never turns YES into NO", () => {
  const lines = new TextDecoder().decode(progressFile).split("\n");
  const records = lines.map((_line, i) => i).filter((i) => lines[i]!.trim() !== "");
  // Each line's bytes, encoded once: a run damages a few records and joins the rest as they are.
  const lineBytes = lines.map(utf8);
  const FIELDS = ["type", "uuid", "parentUuid", "sessionId", "message", "data", "timestamp", "isSidechain", "agentId"];
  const WRONG: unknown[] = [42, [], {}, true, null];
  // Not covered, because no reader can detect them: a value changed into another valid value of
  // the same type (a command rewritten), and deleting records nothing names (see ParentChain).
  const corruption = fc.oneof(
    // Damaged bytes only: "{" or another printable byte inside a string is another valid value.
    fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.constantFrom(0xff, 0xc3, 0x00, 0x22, 0x01) }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("break" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("retype" as const), field: fc.constantFrom(...FIELDS), value: fc.constantFrom(...WRONG) }),
    fc.record({ kind: fc.constant("delete" as const) }),
  );

  it("holds for byte flips, cut records, broken JSON, wrong field types and deleted records", () => {
    expect(verdictOf(parseClaudeCode(progressFile), beadsListing)).toBe("YES");
    const lastChained = Math.max(...records.filter((i) => lines[i]!.includes('"uuid"')));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...records), corruption), { minLength: 1, maxLength: 4 }), (edits) => {
        const copy: Array<string | Uint8Array | null> = [...lineBytes];
        for (const [index, c] of edits) {
          const current = copy[index];
          if (current === null || current === undefined) continue;
          const bytes = typeof current === "string" ? utf8(current) : current;
          if (c.kind === "delete") {
            if (index === lastChained) continue; // nothing names the last record: not detectable
            copy[index] = null;
          } else if (c.kind === "flip") {
            const at = c.at % Math.max(1, bytes.length);
            copy[index] = withByte(bytes, at, c.byte);
          } else if (c.kind === "truncate") {
            copy[index] = bytes.subarray(0, c.at % Math.max(1, bytes.length));
          } else if (c.kind === "break") {
            const at = c.at % Math.max(1, bytes.length);
            // A raw control character first: inside a string ",}" alone is another valid value
            // (a command rewritten), which no reader can detect; 0x01 is invalid anywhere in JSON.
            copy[index] = new Uint8Array([...bytes.subarray(0, at), 0x01, 0x2c, 0x7d, ...bytes.subarray(at)]);
          } else {
            let value: Record<string, unknown>;
            try {
              value = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
            } catch {
              continue; // already broken by an earlier edit
            }
            if (!(c.field in value)) continue;
            value[c.field] = c.value;
            copy[index] = JSON.stringify(value);
          }
        }
        const parts = copy.filter((x) => x !== null).map((x) => (typeof x === "string" ? utf8(x) : x!));
        const joined = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
        let offset = 0;
        for (const p of parts) {
          joined.set(p, offset);
          joined[offset + p.length] = 0x0a;
          offset += p.length + 1;
        }
        const result = parseClaudeCode(joined);
        expectAccounted(result);
        expect(verdictOf(result, beadsListing)).not.toBe("NO");
      }),
      { numRuns: 150 },
    );
    // 150 parses of a 240 KB file: seconds on a loaded machine.
  }, 60_000);
});
