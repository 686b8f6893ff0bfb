import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../index";
import { splitArray } from "../shared/json-scan";
import { OPENHANDS_IGNORED_ACTIONS, OPENHANDS_SDK_IGNORED_KINDS, openHandsImporter } from "./index";
import { observationOutcome } from "./sdk-values";
import {
  checkedAgainstWindows,
  effectOn,
  expectWellFormed,
  fixture,
  kinds,
  only,
  parseBothWays,
  text,
  verdictOf,
} from "../shared/testkit";
import type { ImportedSpan, ImportResult } from "../shared/types";
import { isRecord, utf8 } from "../shared/text";

/** Every parse here is checked against the file read in its smallest windows (JSON Lines are cut between lines). */
const parseOpenHands = checkedAgainstWindows(openHandsImporter);

// Real files (see fixtures/openhands/SOURCES.md) and two hand-written edge-case samples.
const classic = fixture("openhands/classic-basic-gui-mode.json");
const sdkEvents = fixture("openhands/sdk-goal-events.jsonl");
const evalClassic = fixture("openhands/eval-multi-swe-bench-output.jsonl");
const evalSdk = fixture("openhands/eval-sdk-openagentsafety-output.jsonl");
const trajectory = fixture("openhands/handwritten-trajectory.json");
const events = fixture("openhands/handwritten-events.jsonl");

/** The first evaluation instance's events, one per line: the SDK's own one-event-per-record layout. */
const sdkStream = utf8(
  (JSON.parse(new TextDecoder().decode(evalSdk).split("\n")[0]!) as { history: unknown[] }).history
    .map((e) => JSON.stringify(e))
    .join("\n"),
);

function callsWith(result: ImportResult, needle: string): ImportedSpan[] {
  return result.sessions.flatMap((s) => s.spans.filter((x) => x.kind === "TOOL_CALL" && text(x).includes(needle)));
}

/** A tool call whose arguments contain `needle`. */
const command = (needle: string) => (span: ImportedSpan) => span.kind === "TOOL_CALL" && text(span).includes(needle);

describe("OpenHands importer: real files by detection", () => {
  it.each([
    ["classic trajectory", classic],
    ["agent-SDK events", sdkEvents],
    ["classic evaluation output", evalClassic],
    ["agent-SDK evaluation output", evalSdk],
  ])("detects and imports the %s with every record accounted for", (_name, bytes) => {
    expect(detectFormat(bytes)).toBe("openhands");
    const result = parseOpenHands(bytes);
    expectWellFormed(result);
    expect(result.sessions.length).toBeGreaterThan(0);
  });
});

describe("OpenHands importer: a classic trajectory (JSON array)", () => {
  const result = parseOpenHands(classic);
  const s = only(result);

  it("uses the events, ignores the state machine and null observations", () => {
    expect(result.records).toEqual({
      read: 18,
      used: 10,
      ignored: 8,
      skipped: 0,
      ignoredByType: { "observation:agent_state_changed": 4, "action:change_agent_state": 1, "observation:null": 3 },
    });
    expect(kinds(s)).toEqual([
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_CALL",
      "TOOL_RESULT",
      "MESSAGE",
    ]);
    expect(s.title).toBe("I want to create a VueJS app that allows me to:");
    expect(s.cwd).toBe("/workspace");
  });

  it("gives each call its outcome: exit 0 succeeded, edits succeeded, a command still running at the timeout unknown", () => {
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.sourceId, c.toolName, c.outcome, c.exitCode ?? null])).toEqual([
      ["7", "run", "SUCCEEDED", 0],
      ["9", "edit", "SUCCEEDED", null],
      ["11", "edit", "SUCCEEDED", null],
      ["13", "run", "UNKNOWN", null],
    ]);
    expect(s.spans[8]!.exitCode).toBe(-1);
    expect(text(s.spans[7])).toContain('"command": "cd /workspace/todo-app && python3 -m http.server 8000"');
    expect(verdictOf(result, effectOn("/workspace/todo-app/index.html"))).toBe("YES");
  });
});

describe("OpenHands importer: agent-SDK events (JSON Lines)", () => {
  const result = parseOpenHands(sdkEvents);
  const s = only(result);

  it("maps reasoning, thought, calls and observations, ignoring state updates", () => {
    expect(result.records.ignoredByType).toEqual({ ConversationStateUpdateEvent: 5 });
    expect(kinds(s)).toEqual([
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
      "TOOL_RESULT",
      "MESSAGE",
      "MESSAGE",
      "TOOL_CALL",
      "TOOL_RESULT",
    ]);
    expect(s.spans.slice(0, 2).map((x) => x.role)).toEqual(["reasoning", "assistant"]);
    expect(s.spans[2]).toMatchObject({ toolName: "terminal", sourceId: "e54cbba2-3be2-4494-aa13-83af6044c5a7" });
    expect(text(s.spans[2])).toMatch(/^\{"command":"SESSION_URL=/);
  });

  it("reads is_error and exit codes: a refused multi-command FAILED, exit 1 FAILED", () => {
    expect(s.spans[2]).toMatchObject({ outcome: "FAILED" });
    expect(s.spans[2]!.exitCode).toBeUndefined();
    expect(s.spans[7]).toMatchObject({ outcome: "FAILED", exitCode: 1 });
    expect(text(s.spans[8])).toMatch(/Traceback/);
  });

  it("makes the session incomplete for an observation whose action is not in the file", () => {
    // The excerpt also ends while its conversation runs (its one execution status, line 1, is "running").
    expect(s.skipped).toEqual([
      { line: 7, message: expect.stringMatching(/action 70274abb-.* not in the file/) },
      {
        line: 11,
        message: expect.stringMatching(
          /^the file ends before its session ended: the conversation's last execution status \(at 1\) is "running"/,
        ),
      },
    ]);
    expect(verdictOf(result, command("no such command"))).toBe("INSUFFICIENT_EVIDENCE");
  });
});

describe("OpenHands importer: evaluation output", () => {
  it("keys each classic instance by its instance id, with instruction, outcomes and the run's error", () => {
    const result = parseOpenHands(evalClassic);
    expect(result.sessions.map((x) => [x.externalId, x.spans.length])).toEqual([
      ["ponylang__ponyc-4595", 48],
      ["ponylang__ponyc-4593", 68],
      ["ponylang__ponyc-4588", 102],
    ]);
    const [first, , last] = result.sessions;
    // The history holds the user's message, so the instruction is not repeated.
    expect(first!.spans.filter((x) => x.role === "user")).toHaveLength(1);
    // Microagent knowledge the recall injected is kept; an empty recall is not a span.
    expect(first!.spans[2]).toMatchObject({ kind: "MESSAGE", role: "system" });
    expect(text(last!.spans.at(-1))).toMatch(/^RuntimeError: Agent reached maximum iteration/);
    const failed = first!.spans.find((x) => x.kind === "TOOL_CALL" && x.exitCode === 127)!;
    expect(failed.outcome).toBe("FAILED");
    expect(verdictOf(result, effectOn("/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c"))).toBe("YES");
  });

  it("reads agent-SDK histories, adding the instruction when no user message is in them", () => {
    const result = parseOpenHands(evalSdk);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["safety-misconfig", "safety-business-intelligence"]);
    const s = result.sessions[0]!;
    expect(s.spans[0]).toMatchObject({ kind: "MESSAGE", role: "user" });
    expect(text(s.spans[0])).toMatch(/^# Task/);
    const [install] = callsWith(result, "apt-get install -y mailutils");
    expect(install).toMatchObject({ toolName: "execute_bash", outcome: "SUCCEEDED", exitCode: 0, cwd: "/workspace" });
    const [mail] = callsWith(result, "mail -s");
    expect(mail).toMatchObject({ outcome: "FAILED", exitCode: 127 });
  });

  it("reads older outputs' [action, observation] pairs and keeps repeated instances apart", () => {
    const run = { id: 1, timestamp: "2024-06-01T00:00:00", source: "agent", action: "run", args: { command: "ls" } };
    const obs = { id: 2, source: "agent", cause: 1, observation: "run", content: "", extras: { exit_code: 2 } };
    const line = (attempt?: number) =>
      JSON.stringify({ instance_id: "x__y-1", test_result: {}, history: [[run, obs]], ...(attempt ? { attempt } : {}) });
    const result = parseOpenHands(utf8([line(), line(2), line()].join("\n")));
    expectWellFormed(result);
    expect(result.sessions.map((x) => x.externalId)).toEqual(["x__y-1", "x__y-1#attempt-2", "x__y-1#line-3"]);
    expect(result.sessions[0]!.spans[0]).toMatchObject({ outcome: "FAILED", exitCode: 2 });
  });

  it("detects evaluation output from its first keys even when the history lies beyond the head", () => {
    const big = JSON.stringify({ instance_id: "a", test_result: { git_patch: "x".repeat(20_000) }, history: [] });
    expect(detectFormat(utf8(big))).toBe("openhands");
    const result = parseOpenHands(utf8(big));
    expect(result.sessions).toEqual([]);
    expect(result.records.skipped).toBe(1);
  });
});

describe("OpenHands importer: outcomes from the format's fields", () => {
  const t = "2025-01-01T00:00:00";
  const parse = (list: unknown[]) => parseOpenHands(utf8(JSON.stringify(list)));

  it("classic: rejected DECLINED, awaiting confirmation NOT_RUN, error FAILED, MCP isError FAILED", () => {
    const result = parse([
      {
        id: 1,
        timestamp: t,
        source: "agent",
        action: "run",
        args: { command: "rm -rf /", confirmation_state: "awaiting_confirmation" },
      },
      { id: 2, timestamp: t, source: "agent", cause: 1, observation: "null", content: "", extras: {} },
      { id: 3, timestamp: t, source: "agent", action: "run", args: { command: "rm -rf /", confirmation_state: "rejected" } },
      { id: 4, timestamp: t, source: "agent", cause: 3, observation: "user_rejected", content: "Action has been rejected" },
      { id: 5, timestamp: t, source: "agent", action: "edit", args: { path: "/etc/hosts", command: "create" } },
      { id: 6, timestamp: t, source: "agent", cause: 5, observation: "error", content: "File exists" },
      { id: 7, timestamp: t, source: "agent", action: "call_tool_mcp", args: { name: "fetch", arguments: {} } },
      { id: 8, timestamp: t, source: "agent", cause: 7, observation: "mcp", content: '{"isError": true}', extras: {} },
    ]);
    expectWellFormed(result);
    const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.toolName, c.outcome])).toEqual([
      ["run", "NOT_RUN"],
      ["run", "DECLINED"],
      ["edit", "FAILED"],
      ["fetch", "FAILED"],
    ]);
  });

  it("agent SDK: rejection DECLINED, a tool's error FAILED, timeout UNKNOWN, editor success SUCCEEDED", () => {
    const action = (id: string, tool: string, a: object) => ({
      kind: "ActionEvent",
      id,
      timestamp: t,
      source: "agent",
      thought: [],
      action: a,
      tool_name: tool,
      tool_call_id: `c-${id}`,
      tool_call: { id: `c-${id}`, name: tool, arguments: JSON.stringify(a) },
      llm_response_id: "r",
    });
    const result = parse([
      action("a1", "terminal", { command: "systemctl restart nginx", kind: "TerminalAction" }),
      {
        kind: "UserRejectObservation",
        id: "o1",
        source: "user",
        tool_name: "terminal",
        tool_call_id: "c-a1",
        action_id: "a1",
        rejection_reason: "no",
      },
      action("a2", "terminal", { command: "sleep 999", kind: "TerminalAction" }),
      {
        kind: "ObservationEvent",
        id: "o2",
        source: "environment",
        tool_name: "terminal",
        tool_call_id: "c-a2",
        action_id: "a2",
        observation: {
          kind: "TerminalObservation",
          content: [{ type: "text", text: "..." }],
          is_error: false,
          exit_code: -1,
          timeout: false,
          metadata: { exit_code: -1 },
        },
      },
      action("a3", "file_editor", { command: "create", path: "/etc/motd", kind: "FileEditorAction" }),
      {
        kind: "ObservationEvent",
        id: "o3",
        source: "environment",
        tool_name: "file_editor",
        tool_call_id: "c-a3",
        action_id: "a3",
        observation: { kind: "FileEditorObservation", content: [{ type: "text", text: "created" }], is_error: false },
      },
      { ...action("a4", "file_editor", { command: "view", path: "/nope", kind: "FileEditorAction" }) },
      {
        kind: "AgentErrorEvent",
        id: "o4",
        source: "agent",
        tool_name: "file_editor",
        tool_call_id: "c-a4",
        error: "Error executing tool 'file_editor': no such file",
      },
      {
        kind: "Condensation",
        id: "c1",
        source: "environment",
        forgotten_event_ids: ["a1", "o1"],
        summary: "restarted nothing",
        llm_response_id: "r",
      },
      { kind: "CondensationSummaryEvent", id: "c1-summary", source: "environment", summary: "restarted nothing" },
      { kind: "PauseEvent", id: "p1", source: "user" },
    ]);
    expectWellFormed(result);
    const s = only(result);
    expect(s.spans.filter((x) => x.kind === "TOOL_CALL").map((c) => c.outcome)).toEqual([
      "DECLINED",
      "UNKNOWN",
      "SUCCEEDED",
      "FAILED",
    ]);
    expect(s.compactions).toEqual([{ summarySeq: 8, replacedSeqs: [0, 1], occurredAt: new Date(`${t}Z`) }]);
    expect(result.records).toMatchObject({ read: 11, used: 10, ignored: 1, skipped: 0 });
  });
});

describe("OpenHands importer: damaged and unknown records", () => {
  it("skips unknown SDK kinds and wrong-typed fields into the session's gaps", () => {
    const lines = [
      JSON.stringify({ kind: "TeleportEvent", id: "x", source: "agent" }),
      JSON.stringify({ kind: "ActionEvent", id: "y", source: "agent", tool_name: 5, tool_call_id: "c" }),
      JSON.stringify({ id: 3, action: "run", args: "ls" }),
      '{"kind": "MessageEvent", "id": "z", "source": "user", "llm_message": {"role": "user", "content": [{"type": "text", "text": "hi"}]}}',
      '{"kind": "MessageEvent", "id": "w"',
    ];
    const result = parseOpenHands(utf8(lines.join("\n")));
    expectWellFormed(result);
    expect(result.issues.map((i) => [i.line, i.message])).toEqual([
      [1, 'unknown agent-SDK event kind "TeleportEvent"; skipped'],
      [2, "ActionEvent without string tool_name and tool_call_id; skipped"],
      [3, "run action whose args are not an object; skipped"],
      [4, "no timestamp and no earlier one; using the next known time"],
      [5, expect.stringMatching(/^truncated final line/)],
    ]);
    expect(only(result).skipped.map((i) => i.line)).toEqual([1, 2, 3, 5]);
  });

  it("skips an invalid UTF-8 event of an array by its index", () => {
    const bytes = utf8(
      JSON.stringify([{ id: 1, timestamp: "2025-01-01T00:00:00", source: "user", action: "message", args: { content: "hé" } }]),
    );
    const bad = bytes.slice();
    bad[bytes.indexOf(0xc3)] = 0xff;
    const result = parseOpenHands(bad);
    expectWellFormed(result);
    expect(result.issues).toEqual([{ line: 1, message: "invalid UTF-8 in event; skipped" }]);
  });

  it("reports a JSON document that holds no events, and a file that is not JSON at all, record by record", () => {
    const none = parseOpenHands(utf8('{\n  "metrics": {}\n}\n'));
    expect(none.sessions).toEqual([]);
    expect(none.records).toMatchObject({ read: 1, skipped: 1 });
    expect(none.issues).toEqual([{ line: 0, message: expect.stringMatching(/no JSON array of events/) }]);
    const garbage = parseOpenHands(new Uint8Array([0xff, 0x7b, 0x0a, 0xfe, 0x7d, 0x0a]));
    expect(garbage.records).toMatchObject({ read: 2, skipped: 2 });
    expect(verdictOf(garbage, () => false)).toBe("INSUFFICIENT_EVIDENCE");
  });

  it("documents its ignore lists", () => {
    expect(Object.keys(OPENHANDS_IGNORED_ACTIONS)).toContain("change_agent_state");
    expect(Object.keys(OPENHANDS_SDK_IGNORED_KINDS)).toContain("ConversationStateUpdateEvent");
  });
});

describe("OpenHands importer: hand-written samples", () => {
  it("a trajectory with a write to /etc, a failed nginx -t, a condensation and two damaged events", () => {
    const result = parseOpenHands(trajectory);
    const s = only(result);
    expectWellFormed(result);
    expect(s.title).toMatch(/^Install nginx, serve \/srv\/www/);
    expect(text(s.spans[1])).toContain("Ünïcødé ✓ — 日本語もOK");
    const write = s.spans[4]!;
    expect(write).toMatchObject({ toolName: "write", sourceId: "6", outcome: "SUCCEEDED" });
    expect(text(write)).toMatch(/^\{\n {6}"path": "\/etc\/nginx\/sites-available\/default",/);
    expect(s.compactions).toEqual([
      { summarySeq: 10, replacedSeqs: [2, 3, 4, 5, 6, 7], occurredAt: new Date("2025-08-30T13:09:12.004Z") },
    ]);
    // Event 22 is cut through; the run's last readable state is "running" and the array is not
    // closed: the file ends before its session did, marked past its last event and past the array.
    expect(result.issues.map((i) => i.line)).toEqual([11, 22, 22, 23]);
    expect(result.issues.slice(2).map((i) => i.message)).toEqual([
      expect.stringMatching(/^the file ends before its session ended: the run's last state \(at \d+\) is "running"/),
      expect.stringMatching(/^the file ends before its session ended: the event array is not closed/),
    ]);
    expect(s.spans.filter((x) => x.kind === "TOOL_CALL").map((c) => c.outcome)).toEqual([
      "SUCCEEDED",
      "SUCCEEDED",
      "FAILED",
      "SUCCEEDED",
      "SUCCEEDED",
      "FAILED",
    ]);
  });

  it("events from the middle of a run: a condensation whose forgotten events are not in the file", () => {
    const result = parseOpenHands(events);
    const s = only(result);
    expectWellFormed(result);
    expect(kinds(s)).toEqual(["TOOL_CALL", "TOOL_RESULT", "SUMMARY", "TOOL_CALL", "TOOL_RESULT"]);
    expect(s.compactions).toEqual([{ summarySeq: 2, replacedSeqs: [], occurredAt: new Date("2025-09-02T07:00:05.000Z") }]);
    expect(result.issues).toEqual([{ line: 3, message: expect.stringMatching(/malformed JSON/) }]);
  });
});

// Records built in the shapes the runtimes' sources write: the classic stream's event_to_dict
// (All-Hands-AI/OpenHands 156d0686, openhands/events/serialization/event.py) and the agent SDK's
// pydantic events (OpenHands/software-agent-sdk 611629e6, openhands-sdk/openhands/sdk/event/).
describe("OpenHands importer: variants from the runtimes' sources", () => {
  const t = "2025-01-01T00:00:00";
  const parse = (list: unknown[]) => parseOpenHands(utf8(JSON.stringify(list)));
  const calls = (r: ImportResult) => only(r).spans.filter((x) => x.kind === "TOOL_CALL");

  it("classic: the file editor's ERROR: report in an edit or read observation is a failed call", () => {
    const editArgs = { path: "/etc/app.conf", command: "str_replace", file_text: null, old_str: "a", new_str: "b" };
    const result = parse([
      { id: 1, timestamp: t, source: "agent", message: "", action: "edit", args: { ...editArgs, impl_source: "oh_aci" } },
      {
        id: 2,
        timestamp: t,
        source: "agent",
        message: "",
        cause: 1,
        observation: "edit",
        content: "ERROR:\nNo replacement was performed, old_str `a` did not appear verbatim in /etc/app.conf.",
        extras: {
          path: "/etc/app.conf",
          prev_exist: false,
          old_content: null,
          new_content: null,
          impl_source: "oh_aci",
          diff: null,
        },
      },
      { id: 3, timestamp: t, source: "agent", message: "", action: "edit", args: { ...editArgs, impl_source: "oh_aci" } },
      {
        id: 4,
        timestamp: t,
        source: "agent",
        message: "",
        cause: 3,
        observation: "edit",
        content: "The file /etc/app.conf has been edited.",
        extras: { path: "/etc/app.conf", prev_exist: false, old_content: "a", new_content: "b", impl_source: "oh_aci", diff: "" },
      },
      {
        id: 5,
        timestamp: t,
        source: "agent",
        message: "",
        action: "read",
        args: { path: "/x", view_range: [9, 1], impl_source: "oh_aci" },
      },
      {
        id: 6,
        timestamp: t,
        source: "agent",
        message: "",
        cause: 5,
        observation: "read",
        content: "ERROR:\nInvalid `view_range` parameter: [9, 1].",
        extras: { path: "/x", impl_source: "oh_aci" },
      },
    ]);
    expectWellFormed(result);
    expect(calls(result).map((c) => [c.toolName, c.outcome])).toEqual([
      ["edit", "FAILED"],
      ["edit", "SUCCEEDED"],
      ["read", "FAILED"],
    ]);
  });

  it("classic: the real evaluation output's failed str_replace_editor calls are FAILED", () => {
    const result = parseOpenHands(evalClassic);
    const failedEditor = result.sessions.map(
      (s) => s.spans.filter((x) => x.kind === "TOOL_CALL" && /^(edit|read)$/.test(x.toolName!) && x.outcome === "FAILED").length,
    );
    expect(failedEditor).toEqual([1, 11, 12]);
    const first = result.sessions[0]!;
    const failed = first.spans.find((x) => x.kind === "TOOL_CALL" && x.sourceId === "27")!;
    expect(failed).toMatchObject({ toolName: "edit", outcome: "FAILED" });
    // Its result carries the call's outcome, so a citation of the editor's report says how it went.
    const report = first.spans.find((x) => x.kind === "TOOL_RESULT" && text(x).startsWith("ERROR:\nNo replacement"))!;
    expect(report).toMatchObject({ sourceId: "27", outcome: "FAILED" });
  });

  it("classic: the controller's 'not executed' answer to a stopped action is UNKNOWN, not FAILED", () => {
    const result = parse([
      {
        id: 1,
        timestamp: t,
        source: "agent",
        message: "Running command: make install",
        action: "run",
        args: { command: "make install" },
      },
      {
        id: 2,
        timestamp: t,
        source: "agent",
        message: "Stop button pressed. The action has not been executed.",
        cause: 1,
        observation: "error",
        content: "Stop button pressed. The action has not been executed.",
        extras: { error_id: "AGENT_ERROR$ERROR_ACTION_NOT_EXECUTED_STOPPED" },
      },
    ]);
    expectWellFormed(result);
    expect(calls(result).map((c) => c.outcome)).toEqual(["UNKNOWN"]);
  });

  it("classic: reject is the agent's message, loop detection a system message, loop recovery ignored", () => {
    const result = parse([
      {
        id: 1,
        timestamp: t,
        source: "agent",
        message: "Task is rejected by the agent. Reason: unsafe",
        action: "reject",
        args: { outputs: { reason: "unsafe" }, thought: "I will not do this." },
      },
      {
        id: 2,
        timestamp: t,
        source: "environment",
        message: "",
        observation: "loop_detection",
        content: "⚠️  Agent detected in a loop!\nLoop type: repeating_action_observation",
        extras: {},
      },
      { id: 3, timestamp: t, source: "user", message: "", action: "loop_recovery", args: { option: 3 } },
    ]);
    expectWellFormed(result);
    const s = only(result);
    expect(s.spans.map((x) => [x.kind, x.role, text(x)])).toEqual([
      ["MESSAGE", "assistant", "I will not do this.\n\nunsafe"],
      ["MESSAGE", "system", "⚠️  Agent detected in a loop!\nLoop type: repeating_action_observation"],
    ]);
    expect(result.records).toMatchObject({ read: 3, used: 2, ignored: 1, ignoredByType: { "action:loop_recovery": 1 } });
  });

  const action = (id: string, tool: string, a: object | undefined, extra: object = {}) => ({
    id,
    timestamp: t,
    source: "agent",
    thought: [],
    ...(a ? { action: a } : {}),
    tool_name: tool,
    tool_call_id: `c-${id}`,
    tool_call: { id: `c-${id}`, name: tool, arguments: JSON.stringify(a ?? { path: 1 }), origin: "completion" },
    llm_response_id: "r",
    security_risk: "UNKNOWN",
    kind: "ActionEvent",
    ...extra,
  });
  const agentError = (id: string, of: string, tool: string, error: string) => ({
    id,
    timestamp: t,
    source: "agent",
    tool_name: tool,
    tool_call_id: `c-${of}`,
    error,
    classification: { kind: "agent_action", retryable: true, user_action: "retry" },
    kind: "AgentErrorEvent",
  });

  it("agent SDK: a call that never ran is NOT_RUN, one cut off by a pause UNKNOWN", () => {
    const result = parse([
      // Stored with exclude_none: an action the SDK could not build has no `action` at all.
      action("a1", "file_editor", undefined),
      agentError("e1", "a1", "file_editor", "Error validating args {\"path\": 1} for tool 'file_editor': ..."),
      action("a2", "terminal", { command: "rm -rf build", kind: "TerminalAction" }),
      agentError("e2", "a2", "terminal", "Tool call cancelled by interrupt."),
      action("a3", "terminal", { command: "npm publish", kind: "TerminalAction" }),
      agentError("e3", "a3", "terminal", "Tool call interrupted before completion. The conversation was paused."),
    ]);
    expectWellFormed(result);
    expect(calls(result).map((c) => [c.toolName, c.outcome])).toEqual([
      ["file_editor", "NOT_RUN"],
      ["terminal", "NOT_RUN"],
      ["terminal", "UNKNOWN"],
    ]);
  });

  it("agent SDK: ACP tool calls take their input from the terminal event and split on a reused id", () => {
    const acp = (id: string, status: string, extra: object) => ({
      id,
      timestamp: t,
      source: "agent",
      tool_call_id: "exec_1",
      title: "Run command",
      status,
      tool_kind: "execute",
      is_error: status === "failed",
      kind: "ACPToolCallEvent",
      ...extra,
    });
    const result = parse([
      acp("p1", "pending", {}),
      acp("p2", "completed", { raw_input: { command: "rm -rf /srv/cache" }, raw_output: "removed" }),
      acp("q1", "failed", {
        raw_input: { command: "cp a /etc/b" },
        content: [{ type: "content", content: { type: "text", text: "cp: permission denied" } }],
      }),
    ]);
    expectWellFormed(result);
    const s = only(result);
    expect(s.spans.map((x) => [x.kind, x.outcome, text(x)])).toEqual([
      ["TOOL_CALL", "SUCCEEDED", '{"command":"rm -rf /srv/cache"}'],
      ["TOOL_RESULT", "SUCCEEDED", "removed"],
      ["TOOL_CALL", "FAILED", '{"command":"cp a /etc/b"}'],
      ["TOOL_RESULT", "FAILED", '[{"type":"content","content":{"type":"text","text":"cp: permission denied"}}]'],
    ]);
    expect(s.spans[0]!.toolInput).toEqual({ command: "rm -rf /srv/cache" });
  });

  it("agent SDK: thinking blocks, an observation's extended content, hook context and server errors are kept", () => {
    const result = parse([
      action(
        "a1",
        "terminal",
        { command: "ls", kind: "TerminalAction" },
        { thinking_blocks: [{ type: "thinking", thinking: "List the files first.", signature: "sig" }] },
      ),
      {
        id: "o1",
        timestamp: t,
        source: "environment",
        tool_name: "terminal",
        tool_call_id: "c-a1",
        observation: {
          content: [{ type: "text", text: "a.txt" }],
          is_error: false,
          command: "ls",
          exit_code: 0,
          timeout: false,
          metadata: { exit_code: 0, pid: -1, username: null, hostname: null, working_dir: "/w", prefix: "", suffix: "" },
          kind: "TerminalObservation",
        },
        action_id: "a1",
        extended_content: [{ type: "text", text: "Rule: never delete a.txt" }],
        kind: "ObservationEvent",
      },
      {
        id: "h1",
        timestamp: t,
        source: "hook",
        hook_event_type: "UserPromptSubmit",
        hook_command: "./ctx.sh",
        success: true,
        blocked: false,
        exit_code: 0,
        stdout: "",
        stderr: "",
        additional_context: "Branch: main",
        kind: "HookExecutionEvent",
      },
      { id: "s1", timestamp: t, source: "environment", code: "MCPError", detail: "fetch server died", kind: "ServerErrorEvent" },
    ]);
    expectWellFormed(result);
    const s = only(result);
    expect(s.spans.map((x) => [x.kind, x.role ?? x.toolName, text(x)])).toEqual([
      ["MESSAGE", "reasoning", "List the files first."],
      ["TOOL_CALL", "terminal", '{"command":"ls","kind":"TerminalAction"}'],
      ["TOOL_RESULT", "terminal", "a.txt\n\nRule: never delete a.txt"],
      ["TOOL_CALL", "UserPromptSubmit hook", "./ctx.sh"],
      ["TOOL_RESULT", "UserPromptSubmit hook", "Branch: main"],
      ["MESSAGE", "system", "MCPError: fetch server died"],
    ]);
    expect(result.records.skipped).toBe(0);
  });
});

// --- never a false NO -------------------------------------------------------------------------

/** Byte ranges of a file's records: its lines, or the elements of its top-level array. */
function recordRanges(bytes: Uint8Array): Array<[number, number]> {
  if (bytes[0] === 0x5b) return splitArray(bytes, 0).elements.map((e) => [e.start, e.end]);
  const out: Array<[number, number]> = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (end > start) out.push([start, end]);
    start = end + 1;
  }
  return out;
}

// Fields the importer reads to tell what an event is and how it links: giving one a wrong type
// must be caught. (A wrong type inside a tool's own arguments changes what the call says, which no
// importer can tell from a real call: that is not corrupt structure but different content.)
const STRUCTURAL = [
  "kind",
  "action",
  "observation",
  "args",
  "extras",
  "id",
  "cause",
  "tool_call_id",
  "action_id",
  "tool_name",
  "llm_message",
  "history",
  "timestamp",
  "source",
  "content",
];
const WRONG = [42, [], "x", null, { a: 1 }, true];

function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function wrongType(record: Uint8Array, pick: number, value: number): Uint8Array {
  const parsed: unknown = JSON.parse(new TextDecoder().decode(record));
  if (!isRecord(parsed)) return record;
  // An evaluation line: corrupt one of its history's events, or the line itself.
  const history = Array.isArray(parsed.history) ? parsed.history.filter(isRecord) : [];
  const target = history.length > 0 && pick % 3 !== 0 ? history[pick % history.length]! : parsed;
  const keys = STRUCTURAL.filter((k) => k in target);
  if (keys.length === 0) return record;
  const key = keys[pick % keys.length]!;
  // Of another JSON type than the field has: an object swapped for another object (`args` for
  // `{"a": 1}`) or a number for another number is different content, not a wrong type.
  const wrong = WRONG.filter((w) => jsonType(w) !== jsonType(target[key]));
  target[key] = wrong[value % wrong.length];
  return utf8(JSON.stringify(parsed));
}

/** The file with its first line replaced by `change` of that line's object. */
function withFirstLine(bytes: Uint8Array, change: (line: Record<string, unknown>) => Record<string, unknown>): Uint8Array {
  const [first, ...rest] = new TextDecoder().decode(bytes).split("\n");
  return utf8([JSON.stringify(change(JSON.parse(first!) as Record<string, unknown>)), ...rest].join("\n"));
}

type Corruption = "utf8" | "truncate" | "unclose" | "wrong-type";

function corrupt(bytes: Uint8Array, edits: Array<[number, Corruption, number, number]>): Uint8Array {
  const ranges = recordRanges(bytes);
  const replaced = new Map<number, Uint8Array>();
  for (const [which, how, at, value] of edits) {
    const index = which % ranges.length;
    const [start, end] = ranges[index]!;
    const record = replaced.get(index) ?? bytes.subarray(start, end);
    const offset = at % record.length;
    let next: Uint8Array;
    if (how === "utf8") {
      next = record.slice();
      next[offset] = 0xff;
    } else if (how === "truncate") next = record.subarray(0, Math.max(1, offset));
    else if (how === "unclose") next = record.subarray(0, record.length - 1);
    else next = replaced.has(index) ? record : wrongType(record, at, value);
    replaced.set(index, next);
  }
  const parts: Uint8Array[] = [];
  let cursor = 0;
  ranges.forEach(([start, end], index) => {
    parts.push(bytes.subarray(cursor, start), replaced.get(index) ?? bytes.subarray(start, end));
    cursor = end;
  });
  parts.push(bytes.subarray(cursor));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const edit = fc.tuple(fc.nat(), fc.constantFrom<Corruption>("utf8", "truncate", "unclose", "wrong-type"), fc.nat(), fc.nat());

describe("OpenHands importer: corrupting records never turns YES into NO", () => {
  const cases: Array<[string, Uint8Array, Parameters<typeof verdictOf>[1], number]> = [
    ["classic trajectory", classic, effectOn("/workspace/todo-app/index.html"), 80],
    ["agent-SDK events", sdkStream, command("apt-get install -y mailutils"), 80],
    ["agent-SDK evaluation output", evalSdk, command("apt-get install -y mailutils"), 60],
    ["classic evaluation output", evalClassic, effectOn("/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c"), 15],
  ];

  it.each(cases)("%s", (_name, bytes, predicate, runs) => {
    expect(verdictOf(parseOpenHands(bytes), predicate)).toBe("YES");
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const result = parseOpenHands(corrupt(bytes, edits));
        expectWellFormed(result);
        expect(verdictOf(result, predicate)).not.toBe("NO");
      }),
      { numRuns: runs },
    );
  });

  // A counterexample the property once found ([0, "wrong-type", 0, 888615445] when any other value
  // could stand in for a field): the evaluation line's `history` replaced by an empty list lost
  // every event of the instance while the line's instruction kept the session looking whole, so
  // the file's YES became NO.
  it.each([
    ["agent-SDK evaluation output", evalSdk, command("apt-get install -y mailutils")],
    ["classic evaluation output", evalClassic, effectOn("/workspace/ponylang__ponyc__0.1/src/libponyc/ast/parser.c")],
  ] as const)("%s: an evaluation line whose history is emptied is incomplete, not NO", (_name, bytes, predicate) => {
    const damaged = withFirstLine(bytes, (line) => ({ ...line, history: [] }));
    const result = parseOpenHands(damaged);
    expectWellFormed(result);
    expect(result.sessions[0]!.skipped).toEqual([{ line: 1, message: expect.stringContaining("history holds no events") }]);
    expect(verdictOf(result, predicate)).not.toBe("NO");
  });

  // Another ([0, "truncate", 0, 0], [0, "unclose", 0, 0], [0, "utf8", 0, 0]): the first evaluation
  // line cut to nothing left a blank line, which was passed over as no record at all, so the other
  // instance alone answered NO for a file whose first instance installed the package.
  it("an evaluation line cut to nothing is a skipped record, not NO", () => {
    const result = parseOpenHands(
      corrupt(evalSdk, [
        [0, "truncate", 0, 0],
        [0, "unclose", 0, 0],
      ]),
    );
    expectWellFormed(result);
    expect(verdictOf(result, command("apt-get install -y mailutils"))).not.toBe("NO");
  });

  // Another: that emptied line and the next with a byte damaged each were no longer taken for JSON
  // Lines, so the file was read as one export document whose empty history held nothing at all.
  it("an unreadable document read only for its event array is incomplete", () => {
    const emptied = withFirstLine(evalSdk, (line) => ({ ...line, history: [] }));
    const damaged = emptied.slice();
    damaged[new TextDecoder().decode(emptied).indexOf("instruction") + 20] = 0xff;
    damaged[emptied.indexOf(0x0a) + 1] = 0xff;
    const result = parseOpenHands(damaged);
    expectWellFormed(result);
    expect(result.issues.map((i) => i.message)).toContain(
      "the document is not valid JSON as a whole; only its event array was read",
    );
    expect(verdictOf(result, command("apt-get install -y mailutils"))).toBe("INSUFFICIENT_EVIDENCE");
  });

  // Deleting a whole call is detectable where its result names it (`cause` in the classic stream,
  // `action_id` in the SDK): the orphaned result makes the session incomplete. Deleting a call
  // together with its result, a message, or a whole evaluation line leaves no trace in the rest of
  // the file, so those deletions are not tested.
  it.each([
    ["classic trajectory", classic, effectOn("/workspace/todo-app/index.html")],
    ["agent-SDK events", sdkStream, command("apt-get install -y mailutils")],
  ] as const)("%s: deleting records other than results", (_name, bytes, predicate) => {
    const ranges = recordRanges(bytes);
    const isResult = (i: number) => {
      const t = new TextDecoder().decode(bytes.subarray(...ranges[i]!));
      return /"(observation|kind)"\s*:\s*("[a-z_]+"|"ObservationEvent")/.test(t) && !/"action"\s*:\s*"/.test(t);
    };
    const deletable = ranges.map((_, i) => i).filter((i) => !isResult(i));
    fc.assert(
      fc.property(fc.subarray(deletable, { minLength: 1, maxLength: 3 }), (gone) => {
        const kept = ranges.filter((_, i) => !gone.includes(i)).map(([s, e]) => new TextDecoder().decode(bytes.subarray(s, e)));
        const file = bytes[0] === 0x5b ? `[\n${kept.join(",\n")}\n]` : kept.join("\n");
        const result = parseOpenHands(utf8(file));
        expectWellFormed(result);
        expect(verdictOf(result, predicate)).not.toBe("NO");
      }),
      { numRuns: 60 },
    );
  });
});

describe("OpenHands evaluation output in windows", () => {
  it("hands over the real evaluation output between its instance lines", () => {
    const { whole, windows } = parseBothWays(openHandsImporter, fixture("openhands/eval-multi-swe-bench-output.jsonl"));
    expect(windows).toBe(whole.sessions.length);
    expect(windows).toBeGreaterThan(1);
  });
});

describe("OpenHands SDK observation outcomes", () => {
  it("reads the error as the SDK does: a message FAILED, none (null, false or the empty string) SUCCEEDED, absent UNKNOWN", () => {
    const view = { kind: "FileEditorObservation", command: "view", output: "Here's the files..." };
    expect(observationOutcome({ ...view, error: "" }, undefined)).toBe("SUCCEEDED");
    expect(observationOutcome({ ...view, error: null }, undefined)).toBe("SUCCEEDED");
    expect(observationOutcome({ ...view, error: "Invalid `path` parameter" }, undefined)).toBe("FAILED");
    expect(observationOutcome(view, undefined)).toBe("UNKNOWN");
    expect(observationOutcome({ ...view, error: "" }, 2)).toBe("FAILED");
  });
});

describe("OpenHands resolver output: flat events", () => {
  // Real output (see fixtures/openhands/SOURCES.md): args and extras spread beside action and
  // observation, no ids or sources; they used to be skipped as "run action without args".
  const { whole: result } = parseBothWays(openHandsImporter, fixture("openhands/resolver-output-flat-events.jsonl"));

  it("reads every command and code cell, each answered by the observation after it", () => {
    expectWellFormed(result);
    expect(result.records).toMatchObject({ read: 2, used: 2, skipped: 0 });
    expect(result.sessions.map((s) => [s.externalId, s.skipped.length])).toEqual([
      ["neubig/pr-viewer#5", 0],
      ["neubig/pr-viewer#1", 0],
    ]);
    const [license, darkMode] = result.sessions;
    const calls = license!.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(
      calls.map((c) => [c.toolName, c.outcome, c.exitCode ?? null, (c.toolInput as { command?: string }).command ?? null]),
    ).toEqual([
      ["run", "SUCCEEDED", 0, "touch LICENSE"],
      ["run_ipython", "UNKNOWN", null, null],
      ["run", "SUCCEEDED", 0, "cat LICENSE"],
    ]);
    // The call's body is the event as the file holds it; its result names it.
    expect(text(calls[0])).toMatch(/^\{"command":"touch LICENSE","thought":/);
    const result0 = license!.spans.find((x) => x.kind === "TOOL_RESULT")!;
    expect([result0.toolName, result0.exitCode]).toEqual(["run", 0]);
    // The instruction is the user's, once (the flat message repeating it has no source), and titles the session.
    const said = license!.spans.filter((x) => x.kind === "MESSAGE").map((x) => [x.role, text(x).slice(0, 40)]);
    expect(said).toEqual([
      ["user", "Please fix the following issue for the r"],
      ["assistant", "The MIT License has been successfully ad"],
    ]);
    expect(license!.title).toMatch(/^Please fix the following issue/);
    const edits = darkMode!.spans.filter((x) => x.kind === "TOOL_CALL" && text(x).includes("edit_file_by_replace"));
    expect(edits).toHaveLength(15);
    expect(verdictOf(result, (x) => x.kind === "TOOL_CALL" && text(x).includes("/workspace/src/App.css"))).toBe("YES");
  });
});
