import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codexImporter } from "./index";
import { CODEX_IGNORED_EVENT_TYPES } from "./lists";
import { detectFormat, importTranscript, type ImportedSpan } from "../index";
import {
  analyzeImportedSpan,
  checkedAgainstWindows,
  effectOn,
  expectAccounted,
  expectWellFormed,
  fixture,
  kinds,
  lineStart,
  only,
  text,
  verdictOf,
} from "../shared/testkit";
import { utf8 } from "../shared/text";

/** Every parse here is checked against the rollout read in its smallest windows. */
const parseCodex = checkedAgainstWindows(codexImporter);

const rollout = fixture("codex/rollout-sample.jsonl");
const forked = fixture("codex/forked-sample.jsonl");

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

const real = fixture("codex/real-exec-0.135.jsonl");
const at = (n: number) => `2025-01-01T00:00:${String(n).padStart(2, "0")}Z`;
const ev = (n: number, payload: unknown) => line(at(n), "event_msg", payload);
const ri = (n: number, payload: unknown) => line(at(n), "response_item", payload);
const userItem = (n: number, text: string) => ri(n, { type: "message", role: "user", content: [{ type: "input_text", text }] });
const shell = (n: number, id: string, cmd: string) =>
  ri(n, { type: "function_call", name: "shell", call_id: id, arguments: JSON.stringify({ command: ["bash", "-lc", cmd] }) });
const out = (n: number, id: string, output: unknown) => ri(n, { type: "function_call_output", call_id: id, output });
const parseLines = (lines: string[]) => parseCodex(utf8(`${[meta, ...lines].join("\n")}\n`));
const callsOf = (result: ReturnType<typeof parseCodex>) => only(result).spans.filter((s) => s.kind === "TOOL_CALL");

describe("Codex importer: a real rollout (codex exec 0.135.0)", () => {
  const result = importTranscript(real);
  const s = only(result);

  it("is detected and every line is accounted for", () => {
    expect(detectFormat(real)).toBe("codex");
    expect(result.format).toBe("codex");
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 11, used: 9, skipped: 0, ignored: 2 });
    expect(result.records.ignoredByType).toEqual({ task_started: 1, token_count: 1 });
    expect(result.issues).toEqual([]);
  });

  it("keeps the user's prompt once, as a user MESSAGE, besides the injected context", () => {
    const users = s.spans.filter((x) => x.role === "user").map(text);
    expect(users).toEqual([expect.stringMatching(/^<environment_context>/), "[REDACTED_PROMPT]"]);
    expect(s.spans.filter((x) => x.role === "assistant").map(text)).toEqual(["[REDACTED_ASSISTANT_TEXT]"]);
    expect(s.spans.filter((x) => x.role === "developer")).toHaveLength(1);
    expect(s.externalId).toBe("019e9625-802f-7e91-840a-cfe88d14117a");
    expect(s.title).toBe("[REDACTED_PROMPT]");
  });
});

describe("Codex importer: user prompts", () => {
  it("keeps prompts recorded only as user_message events when the rollout has other message items", () => {
    const result = parseLines([
      userItem(1, "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"),
      ev(2, { type: "user_message", message: "first prompt", images: [] }),
      ri(3, { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] }),
      ev(4, { type: "user_message", message: "second prompt" }),
      ev(5, { type: "agent_message", message: "ok again" }),
      ri(6, { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok again" }] }),
      userItem(7, "third prompt"),
      ev(8, { type: "user_message", message: "third prompt" }),
    ]);
    const s = only(result);
    expect(s.spans.filter((x) => x.role === "user").map(text)).toEqual([
      "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>",
      "first prompt",
      "second prompt",
      "third prompt",
    ]);
    expect(s.spans.filter((x) => x.role === "assistant").map(text)).toEqual(["ok", "ok again"]);
    expect(s.title).toBe("first prompt");
    expectWellFormed(result);
  });
});

describe("Codex importer: approvals and outcomes", () => {
  it("keeps a command known only from its approval request", () => {
    const result = parseLines([
      ev(1, { type: "exec_approval_request", call_id: "c1", command: ["bash", "-lc", "rm -rf /etc/nginx"], cwd: "/w" }),
    ]);
    const [call] = callsOf(result);
    expect(call).toMatchObject({ toolName: "shell", outcome: "UNKNOWN", sourceId: "c1" });
    expect(verdictOf(result, effectOn("/etc/nginx"))).toBe("YES");
    expectWellFormed(result);
  });

  it("merges an approval request into the call item it asks about, and a refusal is DECLINED", () => {
    const result = parseLines([
      shell(1, "c1", "rm -rf /etc/nginx"),
      ev(2, { type: "exec_approval_request", call_id: "c1", command: ["bash", "-lc", "rm -rf /etc/nginx"], cwd: "/w" }),
      out(3, "c1", "exec command rejected by user"),
      ri(4, {
        type: "custom_tool_call",
        name: "apply_patch",
        call_id: "p1",
        input: "*** Begin Patch\n*** Add File: /etc/x\n+y\n*** End Patch",
      }),
      ev(5, {
        type: "patch_apply_end",
        call_id: "p1",
        stdout: "",
        stderr: "patch rejected by user",
        success: false,
        status: "declined",
      }),
      shell(6, "c2", "touch /etc/motd"),
      ev(7, {
        type: "exec_command_end",
        call_id: "c2",
        exit_code: -1,
        stderr: "exec command rejected by user",
        status: "declined",
      }),
    ]);
    expect(callsOf(result).map((c) => [c.sourceId, c.outcome])).toEqual([
      ["c1", "DECLINED"],
      ["p1", "DECLINED"],
      ["c2", "DECLINED"],
    ]);
    expect(result.records.skipped).toBe(0);
    expectWellFormed(result);
  });

  it("an empty patch, which the runtime rejects before asking anyone, is NOT_RUN; a policy's rejection is DECLINED", () => {
    const result = parseLines([
      shell(1, "e1", "applypatch << 'PATCH'\n*** Begin Patch\n*** End Patch\nPATCH"),
      out(2, "e1", "patch rejected: empty patch"),
      shell(3, "e2", "applypatch << 'PATCH'\n*** Begin Patch\n*** Add File: /etc/x\n+y\n*** End Patch\nPATCH"),
      out(4, "e2", "patch rejected: writing outside of the project; rejected by user approval settings"),
    ]);
    expect(callsOf(result).map((c) => [c.sourceId, c.outcome])).toEqual([
      ["e1", "NOT_RUN"],
      ["e2", "DECLINED"],
    ]);
    expectWellFormed(result);
  });

  it("gives a patch its result and outcome from patch_apply_end", () => {
    const result = parseLines([
      ri(1, {
        type: "custom_tool_call",
        name: "apply_patch",
        call_id: "p1",
        input: "*** Begin Patch\n*** Update File: a.ts\n*** End Patch",
      }),
      ev(2, {
        type: "patch_apply_end",
        call_id: "p1",
        stdout: "",
        stderr: "Failed to find context",
        success: false,
        changes: {},
      }),
      ev(3, {
        type: "patch_apply_end",
        call_id: "p2",
        stdout: "Success. Updated the following files:\nA /etc/cron.d/job\n",
        stderr: "",
        success: true,
        changes: { "/etc/cron.d/job": { type: "add", content: "* * * * * root true\n" } },
      }),
    ]);
    const s = only(result);
    expect(kinds(s)).toEqual(["TOOL_CALL", "TOOL_RESULT", "TOOL_CALL", "TOOL_RESULT"]);
    // A result carries its call's outcome.
    expect(s.spans.map((x) => x.outcome ?? null)).toEqual(["FAILED", "FAILED", "SUCCEEDED", "SUCCEEDED"]);
    expect(text(s.spans[1])).toBe("Failed to find context");
    expect(s.spans[2]).toMatchObject({ toolName: "apply_patch", toolInput: { changes: { "/etc/cron.d/job": { type: "add" } } } });
    expectWellFormed(result);
  });

  it("reads exit codes, timeouts, sessions still running, MCP results and searches", () => {
    const result = parseLines([
      shell(1, "a", "make"),
      out(2, "a", "Exit code: 2\nWall time: 1.2 seconds\nOutput:\nmake: *** [all] Error 2"),
      shell(3, "b", "sleep 999"),
      out(4, "b", "Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10000 milliseconds\n"),
      shell(5, "c", "sleep 999"),
      out(6, "c", '{"output":"command timed out after 10000 milliseconds; process group killed","metadata":{"exit_code":124}}'),
      ri(7, { type: "function_call", name: "exec_command", call_id: "d", arguments: '{"cmd":"npm run dev"}' }),
      out(8, "d", "Chunk ID: 1\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\nready"),
      ri(9, { type: "function_call", name: "github__create_issue", call_id: "e", arguments: "{}" }),
      ev(10, {
        type: "mcp_tool_call_end",
        call_id: "e",
        invocation: { server: "github", tool: "create_issue" },
        result: { Err: "boom" },
      }),
      ri(11, { type: "function_call", name: "fs__read", call_id: "f", arguments: "{}" }),
      ev(12, {
        type: "mcp_tool_call_end",
        call_id: "f",
        result: { Ok: { content: [{ type: "text", text: "hi" }], isError: false } },
      }),
      ri(13, { type: "web_search_call", status: "completed", action: { type: "search", query: "codex rollout" } }),
      ev(14, { type: "web_search_end", call_id: "ws", query: "codex rollout" }),
      shell(15, "g", "echo never answered"),
      out(16, "h", "Process exited with code 0"),
      shell(17, "h", "true"),
    ]);
    expect(callsOf(result).map((c) => [c.sourceId ?? c.toolName, c.outcome, c.exitCode ?? null])).toEqual([
      ["a", "FAILED", 2],
      ["b", "UNKNOWN", 124],
      ["c", "FAILED", 124],
      ["d", "UNKNOWN", null],
      ["e", "FAILED", null],
      ["f", "SUCCEEDED", null],
      ["web_search", "SUCCEEDED", null],
      ["g", "UNKNOWN", null],
      ["h", "SUCCEEDED", 0],
    ]);
    expectWellFormed(result);
  });

  it("reports an output whose call is not in the file against the session", () => {
    const result = parseLines([out(1, "lost", "Exit code: 0\nOutput:\nwrote /etc/hosts")]);
    const s = only(result);
    expect(s.skipped).toEqual([{ line: 2, message: expect.stringMatching(/call record is not in the file/) }]);
    expect(verdictOf(result, effectOn("/etc/"))).toBe("INSUFFICIENT_EVIDENCE");
    expectWellFormed(result);
  });

  it("counts each ignored line by type and reports unknown events against the session", () => {
    const result = parseLines([
      ev(1, { type: "token_count", info: null }),
      ri(2, { type: "ghost_snapshot", ghost_commit: {} }),
      ev(3, { type: "teleport_begin" }),
      userItem(4, "hi"),
    ]);
    expect(result.records).toMatchObject({ read: 5, used: 2, ignored: 2, skipped: 1 });
    expect(result.records.ignoredByType).toEqual({ token_count: 1, ghost_snapshot: 1 });
    expect(only(result).skipped).toEqual([{ line: 4, message: 'unknown event type "teleport_begin"; skipped' }]);
  });
});

// Records in the shapes the runtime writes as of openai/codex main in July 2026 (#34664): the
// rollout policy in codex-rs/rollout/src/policy.rs, RolloutItem and EventMsg in
// codex-rs/protocol/src/protocol.rs, TurnItem in codex-rs/protocol/src/items.rs.
describe("Codex importer: records the current runtime writes", () => {
  it("accounts for thread settings, world state, agent-message metadata and subagent activity without skipping", () => {
    const result = parseLines([
      ev(1, {
        type: "thread_settings_applied",
        thread_settings: {
          model: "gpt-5.5",
          model_provider_id: "openai",
          approval_policy: "on-request",
          approvals_reviewer: "user",
          permission_profile: { type: "managed" },
          cwd: "/srv/app",
          collaboration_mode: { mode: "default", settings: { model: "gpt-5.5" } },
        },
      }),
      line(at(2), "world_state", { full: true, state: { cwd: "/srv/app" } }),
      line(at(3), "inter_agent_communication_metadata", { trigger_turn: true }),
      ev(4, {
        type: "sub_agent_activity",
        event_id: "e1",
        occurred_at_ms: 1,
        agent_thread_id: "019e0000-0000-7000-8000-000000000001",
        agent_path: "/root/explorer",
        kind: "started",
      }),
      ri(5, { type: "function_call", name: "exec_command", call_id: "c1", arguments: '{"cmd":"rm -f conf.yaml"}' }),
      out(6, "c1", "Process exited with code 0\nOutput:\n"),
    ]);
    expect(result.records).toMatchObject({ read: 7, skipped: 0, ignored: 3 });
    expect(result.records.ignoredByType).toEqual({
      world_state: 1,
      inter_agent_communication_metadata: 1,
      sub_agent_activity: 1,
    });
    const [call] = callsOf(result);
    expect(call).toMatchObject({ cwd: "/srv/app", outcome: "SUCCEEDED", exitCode: 0 });
    expectWellFormed(result);
  });

  it("reads an exec_command_end cwd written as a file: URI as a path", () => {
    const end = (n: number, id: string, cwd: string) =>
      ev(n, {
        type: "exec_command_end",
        call_id: id,
        turn_id: "t1",
        completed_at_ms: 42,
        command: ["bash", "-lc", "tee conf.yaml"],
        cwd,
        path_convention: "posix",
        parsed_cmd: [],
        source: "agent",
        stdout: "",
        stderr: "",
        aggregated_output: "ok",
        exit_code: 0,
        duration: { secs: 0, nanos: 250000000 },
        formatted_output: "",
        status: "completed",
      });
    const result = parseLines([
      shell(1, "c1", "tee conf.yaml"),
      end(2, "c1", "file:///etc/my%20app"),
      shell(3, "c2", "tee conf.yaml"),
      end(4, "c2", "file:///C:/Research/workspace"),
    ]);
    const s = only(result);
    expect(s.spans.map((x) => x.cwd)).toEqual(["/etc/my app", "/etc/my app", "C:/Research/workspace", "C:/Research/workspace"]);
    expectWellFormed(result);
  });

  it("names a namespaced call by its namespace and name", () => {
    const result = parseLines([
      ri(1, { type: "function_call", name: "search", namespace: "mcp__jira__", arguments: "{}", call_id: "n1" }),
      ri(2, {
        type: "custom_tool_call",
        status: "completed",
        call_id: "n2",
        name: "exec",
        namespace: "mcp__python",
        input: "print(1)",
      }),
      ri(3, { type: "function_call", name: "spawn_agent", namespace: "collaboration", arguments: "{}", call_id: "n3" }),
    ]);
    expect(callsOf(result).map((c) => c.toolName)).toEqual([
      "mcp__jira__search",
      "mcp__python.exec",
      "collaboration.spawn_agent",
    ]);
  });

  it("gives a tool search its outcome from the output's status, and reads audio as media", () => {
    const result = parseLines([
      ri(1, {
        type: "tool_search_call",
        call_id: "ts1",
        status: "completed",
        execution: "client",
        arguments: { query: "calendar" },
      }),
      ri(2, { type: "tool_search_output", call_id: "ts1", status: "completed", execution: "client", tools: [] }),
      ri(3, {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "transcribe this" },
          { type: "input_audio", audio_url: "data:audio/wav;base64,AAAA" },
        ],
      }),
    ]);
    expect(callsOf(result).map((c) => c.outcome)).toEqual(["SUCCEEDED"]);
    expect(result.records.skipped).toBe(0);
    expectWellFormed(result);
  });
});

describe("Codex importer: a paginated rollout's completed turn items", () => {
  const done = (n: number, item: unknown) =>
    ev(n, { type: "item_completed", thread_id: "019e0000-0000-7000-8000-000000000002", turn_id: "t1", item, completed_at_ms: n });

  it("takes outcomes and exit codes from CommandExecution, FileChange and McpToolCall items", () => {
    const result = parseLines([
      shell(1, "c1", "make install"),
      done(2, {
        type: "CommandExecution",
        id: "c1",
        command: ["bash", "-lc", "make install"],
        cwd: "file:///srv/app",
        parsed_cmd: [],
        source: "agent",
        status: "failed",
        aggregated_output: "make: *** [install] Error 2",
        exit_code: 2,
        duration: { secs: 1, nanos: 0 },
      }),
      out(3, "c1", "Exit code: 2\nWall time: 1 seconds\nOutput:\nmake: *** [install] Error 2"),
      ri(4, {
        type: "custom_tool_call",
        call_id: "p1",
        name: "apply_patch",
        input: "*** Begin Patch\n*** Add File: /etc/x\n+y\n*** End Patch",
      }),
      done(5, { type: "FileChange", id: "p1", changes: { "/etc/x": { type: "add", content: "y\n" } }, status: "declined" }),
      ri(6, { type: "function_call", name: "create_issue", namespace: "mcp__github__", arguments: "{}", call_id: "m1" }),
      done(7, {
        type: "McpToolCall",
        id: "m1",
        server: "github",
        tool: "create_issue",
        arguments: {},
        status: "failed",
        error: { message: "401 Unauthorized" },
      }),
      done(8, {
        type: "McpToolCall",
        id: "m2",
        server: "fs",
        tool: "write_file",
        arguments: { path: "/etc/hosts", content: "x" },
        status: "completed",
        result: { content: [{ type: "text", text: "wrote /etc/hosts" }], isError: false },
      }),
      done(9, {
        type: "CommandExecution",
        id: "u1",
        command: ["bash", "-lc", "sudo systemctl restart nginx"],
        cwd: "file:///srv/app",
        parsed_cmd: [],
        source: "user_shell",
        status: "completed",
        aggregated_output: "",
        exit_code: 0,
      }),
    ]);
    expect(callsOf(result).map((c) => [c.sourceId, c.toolName, c.outcome, c.exitCode ?? null])).toEqual([
      ["c1", "shell", "FAILED", 2],
      ["p1", "apply_patch", "DECLINED", null],
      ["m1", "mcp__github__create_issue", "FAILED", null],
      ["m2", "fs.write_file", "SUCCEEDED", null],
      ["u1", "shell", "SUCCEEDED", 0],
    ]);
    // The user's own command, known only from its item, runs where the item's file: URI says.
    expect(callsOf(result)[4]).toMatchObject({ cwd: "/srv/app", toolInput: { workdir: "/srv/app" } });
    expect(result.records.skipped).toBe(0);
    expect(verdictOf(result, effectOn("/etc/hosts"))).toBe("YES");
    expectWellFormed(result);
  });

  it("reads hook prompts, raw reasoning and review items as messages, and ignores subagent activity and images", () => {
    const result = parseLines([
      done(1, { type: "HookPrompt", id: "h1", fragments: [{ text: "Run the linter before finishing.", hookRunId: "r1" }] }),
      done(2, { type: "Reasoning", id: "r1", summary_text: [], raw_content: ["checking /etc/hosts first"] }),
      done(3, {
        type: "EnteredReviewMode",
        id: "rv1",
        target: { type: "uncommittedChanges" },
        user_facing_hint: "current changes",
      }),
      done(4, {
        type: "ExitedReviewMode",
        id: "rv1",
        review_output: {
          findings: [],
          overall_correctness: "patch is correct",
          overall_explanation: "ok",
          overall_confidence_score: 0.9,
        },
      }),
      done(5, {
        type: "SubAgentActivity",
        id: "a1",
        kind: "started",
        agent_thread_id: "019e0000-0000-7000-8000-000000000003",
        agent_path: "/root/w",
      }),
      done(6, { type: "ImageGeneration", id: "ig1", status: "completed", result: "Zm9v" }),
      ri(7, { type: "function_call", name: "view_image", call_id: "v1", arguments: '{"path":"/tmp/a.png"}' }),
      done(8, { type: "ImageView", id: "v1", path: "file:///tmp/a.png" }),
      done(9, {
        type: "DynamicToolCall",
        id: "d1",
        tool: "deploy",
        arguments: { env: "prod" },
        status: "failed",
        success: false,
        content_items: [{ type: "inputText", text: "deploy refused: not on main" }],
      }),
    ]);
    const s = only(result);
    const messages = s.spans.filter((x) => x.kind === "MESSAGE");
    expect(messages.map((x) => x.role)).toEqual(["user", "reasoning", "user", "assistant"]);
    expect(text(messages[0])).toBe("Run the linter before finishing.");
    expect(text(messages[1])).toBe("checking /etc/hosts first");
    expect(text(messages[2])).toContain('"user_facing_hint":"current changes"');
    expect(text(messages[3])).toContain("patch is correct");
    expect(callsOf(result).map((c) => [c.toolName, c.outcome])).toEqual([
      ["view_image", "UNKNOWN"],
      ["deploy", "FAILED"],
    ]);
    expect(result.records).toMatchObject({ skipped: 0, ignored: 2 });
    expectWellFormed(result);
  });
});

describe("Codex importer: damaged records never turn YES into NO", () => {
  // Detectable: a corrupted line is skipped (INSUFFICIENT_EVIDENCE at worst); a deleted call item whose
  // output or end event remains is reported. Not detectable: deleting a line that is the only record
  // of a message, or a call with no output and no end event (nothing else names it).
  const corrupt = (bytes: Uint8Array, lineNo: number, how: number, seed: number): Uint8Array => {
    const start = lineStart(bytes, lineNo);
    const end = bytes.indexOf(0x0a, start) < 0 ? bytes.length : bytes.indexOf(0x0a, start);
    const body = new TextDecoder().decode(bytes.subarray(start, end));
    let changed: string;
    if (how === 0) changed = body.slice(0, Math.max(1, seed % Math.max(1, body.length)));
    else if (how === 1) changed = body.replace(/[{}[\]]/, "");
    else if (how === 2) changed = body.replace(/"payload":\{/, '"payload":7,"x":{');
    else changed = body.replace(/"(call_id|type|role|arguments|message)":"/, '"$1":42,"y":"');
    const prefix = bytes.subarray(0, start);
    const suffix = bytes.subarray(end);
    const enc = utf8(changed);
    const outBytes = new Uint8Array(prefix.length + enc.length + suffix.length);
    outBytes.set(prefix);
    outBytes.set(enc, prefix.length);
    outBytes.set(suffix, prefix.length + enc.length);
    if (how === 4) {
      const at = start + (seed % Math.max(1, end - start));
      outBytes[at] = outBytes[at]! ^ 0x80;
    }
    return outBytes;
  };
  const lines = (bytes: Uint8Array) =>
    new TextDecoder()
      .decode(bytes)
      .split("\n")
      .filter((l) => l.trim()).length;

  it.each([
    ["the real rollout", real, (s: ImportedSpan) => s.role === "user" && text(s).includes("[REDACTED_PROMPT]")],
    ["the sample rollout", rollout, effectOn("/etc/")],
  ] as const)("%s", (_name, bytes, predicate) => {
    expect(verdictOf(parseCodex(bytes), predicate)).toBe("YES");
    const n = lines(bytes);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: n }), fc.integer({ min: 0, max: 4 }), fc.nat()), {
          minLength: 1,
          maxLength: 3,
        }),
        (edits) => {
          let copy = bytes;
          for (const [l, how, seed] of edits) copy = corrupt(copy, l, how, seed);
          const result = parseCodex(copy);
          expectAccounted(result);
          expect(verdictOf(result, predicate)).not.toBe("NO");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("deleting a call item whose output remains is detected", () => {
    const lines = new TextDecoder().decode(rollout).split("\n");
    const callLine = lines.findIndex((l) => l.includes('"type":"function_call"') && l.includes("tee -a /etc"));
    expect(callLine).toBeGreaterThan(0);
    const without = utf8(lines.filter((_, i) => i !== callLine).join("\n"));
    expect(verdictOf(parseCodex(without), effectOn("/etc/postgresql"))).not.toBe("NO");
  });
});

// A real interactive rollout (codex-tui 0.125.0, see fixtures/codex/SOURCES.md): unified exec
// (`exec_command` sessions polled with `write_stdin`), exec_command_end exit codes, apply_patch with
// patch_apply_end, web searches, update_plan and encrypted reasoning.
const realTui = fixture("codex/codemie-tui-0.125.jsonl");

describe("Codex importer: a real interactive rollout (codex-tui 0.125.0)", () => {
  const result = importTranscript(realTui);
  const s = only(result);
  const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
  const call = (id: string) => calls.find((x) => x.sourceId === id)!;

  it("is detected and every line is accounted for", () => {
    expect(detectFormat(realTui)).toBe("codex");
    expectWellFormed(result);
    expect(result.records).toEqual({
      read: 386,
      used: 293,
      ignored: 93,
      skipped: 0,
      ignoredByType: { task_started: 2, token_count: 66, "reasoning:encrypted": 25 },
    });
    expect(result.issues).toEqual([]);
    expect(s.externalId).toBe("019e1625-789d-76c0-80ab-3724b5ddb799");
    expect(s.cwd).toBe("/Users/Sample_User/repos/codemie-ai/codemie-code");
    expect(s.title).toBe("show tools");
  });

  it("takes each command's exit code from its exec_command_end, the session polls' from their output", () => {
    expect(calls.filter((x) => x.toolName === "exec_command")).toHaveLength(43);
    // The first run of the new test failed, the second passed.
    const failedTest = call("call_nTBN3WDXOZcJOBB6UsOQHpni");
    expect([failedTest.outcome, failedTest.exitCode, failedTest.sourceLine]).toEqual(["FAILED", 1, 263]);
    expect(text(failedTest)).toContain(
      'npm test -- --run src/agents/plugins/__tests__/codemie-code-reasoning.test.ts -t \\"Compaction Config\\"',
    );
    expect([call("call_I2o7u6On6VwisKotRqhrV5wQ").outcome, call("call_I2o7u6On6VwisKotRqhrV5wQ").exitCode]).toEqual([
      "SUCCEEDED",
      0,
    ]);
    // rg on a path that does not exist exits 2.
    expect([call("call_NqXBF7JK4NH5M85YXgojxxmC").outcome, call("call_NqXBF7JK4NH5M85YXgojxxmC").exitCode]).toEqual([
      "FAILED",
      2,
    ]);
    // A poll that finds the process still running says nothing yet; the poll that sees it exit does.
    expect(call("call_IKzTcbBsGbQRdLjZIXSLUrR1").outcome).toBe("UNKNOWN");
    expect([call("call_DB5AJii3vOjg1IAlyKDuOfK2").outcome, call("call_DB5AJii3vOjg1IAlyKDuOfK2").exitCode]).toEqual([
      "SUCCEEDED",
      0,
    ]);
  });

  it("a write_stdin the runtime refused (stdin closed) FAILED", () => {
    const refused = call("call_T8WFc2EjJV2QZKr07SfDPwmE");
    expect([refused.toolName, refused.outcome, refused.exitCode]).toEqual(["write_stdin", "FAILED", undefined]);
    const output = s.spans.find((x) => x.kind === "TOOL_RESULT" && x.sourceId === refused.sourceId)!;
    expect(output.outcome).toBe("FAILED");
    expect(text(output)).toMatch(/^write_stdin failed: stdin is closed for this session/);
  });

  it("an exec_command the runtime could not carry out FAILED, with no exit code", () => {
    const exec = (n: number, id: string) =>
      ri(n, { type: "function_call", name: "exec_command", call_id: id, arguments: JSON.stringify({ cmd: "make" }) });
    const r = parseLines([
      exec(1, "c1"),
      out(2, "c1", "exec_command failed: SandboxDenied"),
      exec(3, "c2"),
      out(4, "c2", "exec_command did it"),
    ]);
    expect(callsOf(r).map((x) => [x.outcome, x.exitCode])).toEqual([
      ["FAILED", undefined],
      ["UNKNOWN", undefined],
    ]);
  });

  it("gives the three patches their outcome from patch_apply_end, and keeps the searches", () => {
    const patches = calls.filter((x) => x.toolName === "apply_patch");
    expect(patches.map((x) => [x.sourceLine, x.outcome, x.exitCode])).toEqual([
      [257, "SUCCEEDED", 0],
      [276, "SUCCEEDED", 0],
      [280, "SUCCEEDED", 0],
    ]);
    expect(text(patches[1])).toMatch(/^\*\*\* Begin Patch\n\*\*\* Update File: src\/agents\/plugins\/codemie-code\.plugin\.ts\n/);
    expect(calls.filter((x) => x.toolName === "web_search").map((x) => x.outcome)).toEqual([
      "SUCCEEDED",
      "SUCCEEDED",
      "SUCCEEDED",
    ]);
  });
});

describe("Codex importer: damaged records of the real interactive rollout never turn YES into NO", () => {
  // Same corruptions as above. Not detectable, besides those listed there: deleting an
  // exec_command_end whose command's output only said it was still running (the call stays, UNKNOWN).
  const patched = effectOn("/Users/Sample_User/repos/codemie-ai/codemie-code/src/agents/plugins/opencode/");
  const testFailed = (x: ImportedSpan) => x.kind === "TOOL_CALL" && x.outcome === "FAILED" && text(x).includes("npm test");

  it.each([
    ["a patch under src/agents/plugins/opencode/", patched],
    ["a failed npm test run", testFailed],
  ] as const)(
    "%s",
    (_name, predicate) => {
      const whole = parseCodex(realTui);
      expect(verdictOf(whole, predicate)).toBe("YES");
      const lines = new TextDecoder().decode(realTui).split("\n");
      const n = lines.filter((l) => l.trim()).length;
      // Half the edits land on the records the YES rests on or next to them (a call's result and
      // approval follow it): an edit elsewhere in a file of 700 KB rarely touches what decides the
      // answer, so a run aimed there buys what several blind ones did.
      const cited = whole.sessions.flatMap((s) =>
        s.spans.filter((x) => predicate(x, analyzeImportedSpan(x, s))).map((x) => x.sourceLine),
      );
      const near = [...new Set(cited.flatMap((l) => [l - 1, l, l + 1, l + 2, l + 3]))].filter((l) => l >= 1 && l <= n);
      expect(near.length).toBeGreaterThan(0);
      fc.assert(
        fc.property(
          fc.array(
            fc.tuple(
              fc.oneof(fc.integer({ min: 1, max: n }), fc.constantFrom(...near)),
              fc.integer({ min: 0, max: 4 }),
              fc.nat(),
            ),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
          (edits) => {
            const copy = [...lines];
            for (const [l, how, seed] of edits) {
              const body = copy[l - 1]!;
              if (how === 0) copy[l - 1] = body.slice(0, Math.max(1, seed % Math.max(1, body.length)));
              else if (how === 1) copy[l - 1] = body.replace(/[{}[\]]/, "");
              else if (how === 2) copy[l - 1] = body.replace(/"payload":\{/, '"payload":7,"x":{');
              else if (how === 3)
                copy[l - 1] = body.replace(/"(call_id|type|role|arguments|input|exit_code)":/, '"$1":[42],"y":');
              else {
                // A damaged byte: a raw control character, which no JSON text may hold (a printable
                // one inside a string would be another valid record, not damage).
                const i = seed % Math.max(1, body.length);
                copy[l - 1] = `${body.slice(0, i)}\u0001${body.slice(i + 1)}`;
              }
            }
            const result = parseCodex(utf8(copy.join("\n")));
            expectAccounted(result);
            expect(verdictOf(result, predicate)).not.toBe("NO");
          },
        ),
        { numRuns: 30 },
      );
    },
    120_000,
  );
});

describe("Codex importer: a real 0.47 rollout whose patch the runtime refused before writing", () => {
  // See fixtures/codex/SOURCES.md.
  const result = importTranscript(fixture("codex/yoavf-pomodoro-0.47.jsonl"));
  const patches = only(result).spans.filter((x) => x.kind === "TOOL_CALL" && x.toolName === "apply_patch");

  it("a patch that failed apply_patch's verification FAILED; the ten applied SUCCEEDED", () => {
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 153, used: 111, ignored: 42, skipped: 0 });
    expect(patches.filter((p) => p.outcome === "SUCCEEDED")).toHaveLength(10);
    const refused = patches.filter((p) => p.outcome !== "SUCCEEDED");
    expect(refused.map((p) => [p.sourceLine, p.outcome, p.exitCode ?? null])).toEqual([[110, "FAILED", null]]);
  });
});
