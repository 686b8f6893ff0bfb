import { describe, expect, it } from "vitest";
import { CODEX_IGNORED_EVENT_TYPES, parseCodex } from "./codex";
import { expectWellFormed, fixture, kinds, only, text } from "./testkit";
import { utf8 } from "./text";

const rollout = fixture("codex-rollout.jsonl");
const forked = fixture("codex-forked.jsonl");

const line = (timestamp: string, type: string, payload: unknown) => JSON.stringify({ timestamp, type, payload });
const meta = line("2025-01-01T00:00:00Z", "session_meta", { id: "s1", timestamp: "2025-01-01T00:00:00Z", cwd: "/w" });

describe("Codex importer: a rollout with a compaction", () => {
  const result = parseCodex(rollout);
  const s = only(result);

  it("names the session from session_meta, with cwd, start and title", () => {
    expect(s.externalId).toBe("0199b4e2-7a31-7c52-9d14-3f6a8b2c1e05");
    expect(s.runtime).toBe("codex");
    expect(s.cwd).toBe("/home/dana/src/billing");
    expect(s.startedAt?.toISOString()).toBe("2025-10-21T09:14:02.498Z");
    expect(s.title).toMatch(/^Fix the failing invoices migration/);
    expectWellFormed(result);
  });

  it("maps items in order and drops event messages that repeat message items", () => {
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
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
    ]);
    expect(s.spans[2]!.role).toBe("reasoning");
    expect(text(s.spans[1])).toContain("¡gracias! 请确认数据库正常。");
    expect(s.spans.filter((x) => x.role === "assistant")).toHaveLength(1);
  });

  it("keeps function-call arguments verbatim and parsed", () => {
    const call = s.spans[3]!;
    expect(call.toolName).toBe("shell");
    expect(text(call)).toBe('{"command":["bash","-lc","ls migrations"],"workdir":"/home/dana/src/billing"}');
    expect(call.toolInput).toEqual({ command: ["bash", "-lc", "ls migrations"], workdir: "/home/dana/src/billing" });
    expect(call.sourceId).toBe("call_Qx1b7TnW2kLmP0aRs9vYe3Jd");
  });

  it("maps apply_patch as a call whose body is the patch", () => {
    const patch = s.spans[7]!;
    expect(patch.toolName).toBe("apply_patch");
    expect(text(patch)).toMatch(/^\*\*\* Begin Patch\n\*\*\* Update File: migrations\/002_add_invoices\.sql/);
    expect(s.spans[8]!.toolName).toBe("apply_patch");
  });

  it("reads exit codes from the JSON wrapper, the 'Exit code:' header and exec_command_end", () => {
    const results = s.spans.filter((x) => x.kind === "TOOL_RESULT");
    expect(results.map((r) => r.exitCode)).toEqual([0, 3, 0, 0, 0]);
  });

  it("makes a result from exec_command_end when no output item follows, with its cwd", () => {
    const enable = s.spans[10]!;
    expect(enable.toolInput).toMatchObject({ command: ["bash", "-lc", "sudo systemctl enable --now postgresql"] });
    const result = s.spans[11]!;
    expect(result.kind).toBe("TOOL_RESULT");
    expect(result.cwd).toBe("/");
    expect(enable.cwd).toBe("/");
    expect(text(result)).toContain("/etc/systemd/system/multi-user.target.wants/postgresql.service");
  });

  it("records the write to /etc through tee", () => {
    expect(s.spans[12]!.toolInput).toMatchObject({
      command: ["bash", "-lc", expect.stringContaining("sudo tee -a /etc/postgresql/16/main/postgresql.conf")],
    });
  });

  it("replaces the spans before the compaction except the messages its replacement history keeps", () => {
    expect(s.compactions).toEqual([
      { summarySeq: 9, replacedSeqs: [2, 3, 4, 5, 6, 7, 8], occurredAt: new Date("2025-10-21T09:31:44.725Z") },
    ]);
    expect(text(s.spans[9])).toMatch(/^Progress:/);
  });

  it("reports the cut line, the unknown event type and the truncated final line", () => {
    expect(result.issues.map((i) => i.line)).toEqual([15, 24, 25]);
    expect(result.issues[1]!.message).toBe('unknown event type "hyperdrive_engaged"; skipped');
    expect(result.issues[2]!.message).toMatch(/truncated final line/);
  });
});

describe("Codex importer: a rollout that opens with its compaction", () => {
  const result = parseCodex(forked);
  const s = only(result);

  it("gives the compaction an empty replaced list", () => {
    expect(s.compactions).toEqual([{ summarySeq: 0, replacedSeqs: [], occurredAt: new Date("2025-11-03T17:40:00.200Z") }]);
    expectWellFormed(result);
  });

  it("uses event messages when there are no message items, and keeps a user's own command", () => {
    expect(kinds(s)).toEqual(["SUMMARY", "MESSAGE", "TOOL_CALL", "TOOL_RESULT", "MESSAGE"]);
    expect(s.spans.map((x) => x.role ?? null)).toEqual([null, "user", null, null, "assistant"]);
    expect(text(s.spans[2])).toBe('["bash","-lc","systemctl is-active api.service"]');
    expect(s.spans[3]).toMatchObject({ exitCode: 3, cwd: "/srv/api", toolName: "shell" });
    expect(result.issues).toEqual([{ line: 5, message: expect.stringMatching(/malformed JSON/) }]);
  });
});

describe("Codex importer: line handling", () => {
  it("ignores the documented noise without issues", () => {
    const lines = [
      meta,
      ...Object.keys(CODEX_IGNORED_EVENT_TYPES).map((type) => line("2025-01-01T00:00:01Z", "event_msg", { type })),
    ];
    lines.push(line("2025-01-01T00:00:02Z", "response_item", { type: "ghost_snapshot", ghost_commit: { id: "abc" } }));
    lines.push(line("2025-01-01T00:00:03Z", "response_item", { type: "reasoning", summary: [], encrypted_content: "gAAAA" }));
    lines.push(
      line("2025-01-01T00:00:04Z", "response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "hi" }],
      }),
    );
    const result = parseCodex(utf8(lines.join("\n")));
    expect(result.issues).toEqual([]);
    expect(only(result).spans).toHaveLength(1);
  });

  it("reports unknown line types, item types and wrong shapes with their lines", () => {
    const lines = [
      meta,
      line("2025-01-01T00:00:01Z", "telepathy", {}),
      line("2025-01-01T00:00:02Z", "response_item", { type: "hologram_call" }),
      line("2025-01-01T00:00:03Z", "response_item", { type: "function_call", name: "shell" }),
      JSON.stringify({ timestamp: "2025-01-01T00:00:04Z", type: "response_item", payload: "oops" }),
      "[1,2,3]",
    ];
    const result = parseCodex(utf8(`${lines.join("\n")}\n`));
    expect(result.issues).toEqual([
      { line: 2, message: 'unknown rollout line type "telepathy"; skipped' },
      { line: 3, message: 'unknown response item type "hologram_call"; skipped' },
      { line: 4, message: "function_call without string call_id, name and arguments; skipped" },
      { line: 5, message: "payload is not an object; skipped" },
      { line: 6, message: "expected a JSON object, found an array; line skipped" },
    ]);
  });

  it("keeps arguments that are not JSON as the string the model wrote", () => {
    const lines = [
      meta,
      line("2025-01-01T00:00:01Z", "response_item", { type: "function_call", name: "shell", arguments: "ls -la", call_id: "c1" }),
    ];
    const s = only(parseCodex(utf8(lines.join("\n"))));
    expect(s.spans[0]).toMatchObject({ toolInput: "ls -la", kind: "TOOL_CALL" });
  });

  it("reads the legacy layout: a bare meta object, then bare response items", () => {
    const lines = [
      JSON.stringify({ id: "legacy-1", timestamp: "2025-04-20T10:00:00.000Z", instructions: null }),
      JSON.stringify({ type: "message", role: "user", content: [{ type: "input_text", text: "rm the temp dir" }] }),
      JSON.stringify({ record_type: "state" }),
      JSON.stringify({
        type: "local_shell_call",
        call_id: "c9",
        status: "completed",
        action: { type: "exec", command: ["rm", "-rf", "/tmp/build"], working_directory: "/tmp" },
      }),
      JSON.stringify({
        type: "function_call_output",
        call_id: "c9",
        output: '{"output":"","metadata":{"exit_code":0,"duration_seconds":0.01}}',
      }),
    ];
    const result = parseCodex(utf8(lines.join("\n")));
    const s = only(result);
    expect(s.externalId).toBe("legacy-1");
    expect(kinds(s)).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]);
    expect(s.spans[1]).toMatchObject({
      toolName: "local_shell",
      cwd: "/tmp",
      toolInput: { command: ["rm", "-rf", "/tmp/build"] },
    });
    expect(text(s.spans[1])).toBe('{"type":"exec","command":["rm","-rf","/tmp/build"],"working_directory":"/tmp"}');
    expect(s.spans[2]).toMatchObject({ exitCode: 0, toolName: "local_shell" });
    expect(s.spans.every((x) => x.occurredAt.toISOString() === "2025-04-20T10:00:00.000Z")).toBe(true);
    expect(result.issues).toEqual([]);
  });
});
