import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SpanAnalysis } from "@/lib/evidence/types";
import { detectFormat, importTranscript } from "../index";
import { locate, splitArray } from "../shared/json-scan";
import { parseSweAgent, sweAgentImporter } from "./index";
import { commandLineCall, outcomeOf } from "./steps";
import { effectOn, expectWellFormed, fixture, kinds, only, text, verdictOf } from "../shared/testkit";
import { utf8 } from "../shared/text";

// 0.x layout (environment, trajectory, history, info), command-line actions.
const testRepo = fixture("swe-agent/swe-agent__test-repo-i1.traj");
const pydicom = fixture("swe-agent/pydicom__pydicom-1458.traj");
// 1.x layout with function calls in the history and replay_config.
const marshmallow = fixture("swe-agent/marshmallow-code__marshmallow-1867.function-calling.traj");

describe("SWE-agent importer: real trajectories", () => {
  it("detects every fixture as swe-agent and accounts for every record", () => {
    for (const file of [testRepo, pydicom, marshmallow]) {
      expect(detectFormat(file)).toBe("swe-agent");
      const result = importTranscript(file);
      expectWellFormed(result);
      expect(result.records.skipped).toBe(0);
      expect(only(result).skipped).toEqual([]);
    }
  });

  it("merges each step with its history entries: 0.x test repo", () => {
    const result = parseSweAgent(testRepo);
    // 5 steps + 12 history entries + info.
    expect(result.records).toMatchObject({ read: 18, used: 18, ignored: 0, skipped: 0 });
    const s = only(result);
    expect(s.externalId).toMatch(/^swe-agent:[0-9a-f]{32}$/);
    expect(s.title).toBe("SyntaxError: invalid syntax");
    expect(s.cwd).toBe("/klieret__swe-agent-test-repo");
    expect(s.spans.map((x) => x.role ?? x.kind)).toEqual([
      "system",
      "demonstration",
      "user",
      ...Array(5).fill(["assistant", "TOOL_CALL", "TOOL_RESULT"]).flat(),
      "system",
    ]);
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.toolName, c.outcome])).toEqual([
      ["find_file", "SUCCEEDED"],
      ["open", "SUCCEEDED"],
      ["edit", "SUCCEEDED"],
      ["bash", "UNKNOWN"],
      ["submit", "SUCCEEDED"],
    ]);
    expect(calls[0]!.toolInput).toEqual({ command: 'find_file "missing_colon.py"\n' });
    expect(text(calls[2])).toMatch(/^edit 4:4\ndef division\(a: float, b: float\) -> float:\nend_of_edit/);
    expect(text(s.spans.at(-1))).toMatch(
      /^\{\n {4}"exit_status": "submitted",\n {4}"submission": "\\ndiff --git a\/tests\/missing_colon.py/,
    );
  });

  it("reads failures from the observations: tracebacks and rejected edits", () => {
    const s = only(parseSweAgent(pydicom));
    const calls = s.spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => `${c.toolName}:${c.outcome}`)).toEqual([
      "create:SUCCEEDED",
      "edit:SUCCEEDED",
      "bash:FAILED",
      "find_file:SUCCEEDED",
      "open:SUCCEEDED",
      "edit:FAILED",
      "edit:FAILED",
      "edit:FAILED",
      "edit:SUCCEEDED",
      "bash:UNKNOWN",
      "bash:SUCCEEDED",
      "submit:SUCCEEDED",
    ]);
    expect(calls[0]!.toolInput).toEqual({ command: "create reproduce_bug.py\n", filename: "reproduce_bug.py" });
    expect(calls[0]!.cwd).toBe("/pydicom__pydicom");
    // The empty output of `rm` is shown to the model as "ran successfully": that text is the result.
    const rmResult = s.spans[calls[10]!.seq + 1]!;
    expect(rmResult.kind).toBe("TOOL_RESULT");
    expect(text(rmResult)).toMatch(/^Your command ran successfully and did not produce any output/);
    expect(verdictOf(parseSweAgent(pydicom), effectOn("/pydicom__pydicom/reproduce_bug.py"))).toBe("YES");
  });

  it("takes function calls from the history: 1.x with tool_calls", () => {
    const result = parseSweAgent(marshmallow);
    // 11 steps + 24 history entries + info, each step merged with its two entries.
    expect(result.records).toMatchObject({ read: 36, used: 36, skipped: 0 });
    const s = only(result);
    expect(s.externalId).toBe("marshmallow-code__marshmallow-1867");
    expect(s.title).toBe("TimeDelta serialization precision");
    expect(kinds(s).filter((k) => k === "TOOL_CALL")).toHaveLength(11);
    const create = s.spans.find((x) => x.toolName === "create")!;
    expect(create).toMatchObject({
      toolInput: { filename: "reproduce.py" },
      sourceId: "call_cyI71DYnRdoLHWwtZgIaW2wr",
      cwd: "/testbed",
      outcome: "SUCCEEDED",
    });
    expect(text(create)).toBe('{"filename":"reproduce.py"}');
    const edits = s.spans.filter((x) => x.toolName === "edit" && x.kind === "TOOL_CALL");
    expect(edits.map((e) => e.outcome)).toEqual(["FAILED", "SUCCEEDED"]);
    expect(verdictOf(result, effectOn("/testbed/reproduce.py"))).toBe("YES");
  });

  it("keeps demonstrations as examples, never as the agent's acts", () => {
    const s = only(parseSweAgent(testRepo));
    const demo = s.spans.filter((x) => x.role === "demonstration");
    expect(demo).toHaveLength(1);
    expect(demo[0]!.kind).toBe("MESSAGE");
    // The demonstration creates reproduce.py and edits files; none of that is a call of this run.
    expect(text(demo[0])).toContain("create reproduce.py");
    expect(verdictOf(parseSweAgent(testRepo), (span) => span.kind === "TOOL_CALL" && span.role === "demonstration")).toBe("NO");
  });
});

describe("SWE-agent importer: shapes and edge cases (hand-written)", () => {
  const step = (action: string, observation: string, thought = `do ${action}`) => ({
    action,
    observation,
    response: `${thought}\n\`\`\`\n${action}\n\`\`\``,
    thought,
    execution_time: 0.1,
    state: { open_file: "n/a", working_dir: "/repo" },
  });
  const doc = (o: unknown) => utf8(JSON.stringify(o, null, 2));

  it("imports requeried steps the history left out as NOT_RUN, and blocked ones as DECLINED", () => {
    const blocked = step("vim setup.py", "");
    const next = {
      ...step("create /repo/a.py", "[File: /repo/a.py (1 lines total)]"),
      query: [{ role: "user", content: "Operation 'vim setup.py' is not supported by this environment." }],
    };
    const bad = step("rm -rf /repo/build", "");
    const ok = step("ls", "a.py");
    const history = [
      { role: "system", content: "sys", agent: "main", message_type: "system_prompt" },
      { role: "user", content: "ISSUE:\nFix it", agent: "main", message_type: "observation" },
      {
        role: "assistant",
        content: next.response,
        thought: next.thought,
        action: next.action,
        agent: "main",
        message_type: "action",
      },
      { role: "user", content: "[File: /repo/a.py (1 lines total)]", agent: "main", message_type: "observation" },
      { role: "assistant", content: ok.response, thought: ok.thought, action: ok.action, agent: "main", message_type: "action" },
      { role: "user", content: "a.py", agent: "main", message_type: "observation" },
    ];
    const result = parseSweAgent(doc({ trajectory: [blocked, next, bad, ok], history, info: { exit_status: "exit_format" } }));
    expectWellFormed(result);
    const calls = only(result).spans.filter((x) => x.kind === "TOOL_CALL");
    expect(calls.map((c) => [c.toolName, c.outcome])).toEqual([
      ["bash", "DECLINED"],
      ["create", "SUCCEEDED"],
      ["bash", "NOT_RUN"],
      ["bash", "UNKNOWN"],
    ]);
    expect(only(result).title).toBe("Fix it");
  });

  it("turns an exit at the cost limit into the runtime's messages, not a tool call", () => {
    const exit = { ...step("", "Exited (autosubmitted)", "Exit due to cost limit"), response: "Exit due to cost limit" };
    const s = only(parseSweAgent(doc({ trajectory: [exit], history: [], info: { exit_status: "submitted (exit_cost)" } })));
    expect(s.spans.map((x) => [x.kind, x.role])).toEqual([
      ["MESSAGE", "system"],
      ["MESSAGE", "system"],
      ["MESSAGE", "system"],
    ]);
  });

  it("merges the top-level copy of the chosen attempt into that attempt", () => {
    const attempt = { trajectory: [step("ls", "a.py")], history: [], info: { exit_status: "submitted" } };
    const file = { attempts: [attempt, attempt], ...attempt, info: { exit_status: "submitted", best_attempt_idx: 1 } };
    const result = parseSweAgent(doc(file));
    expectWellFormed(result);
    const s = only(result);
    expect(result.records).toMatchObject({ read: 6, used: 6 });
    expect(s.spans.filter((x) => x.kind === "TOOL_CALL").map((x) => x.agentId)).toEqual(["attempt_0", "attempt_1"]);
  });

  it("reports a malformed step, a truncated end, invalid UTF-8 and wrong field types as skipped", () => {
    const good = JSON.stringify(step("rm /repo/x", "removed"));
    const bytes = utf8(
      `{"trajectory": [${good}, {"action": oops}, ${JSON.stringify({ ...step("ls", "a"), action: 42 })}, ${good.slice(0, 30)}`,
    );
    const result = parseSweAgent(bytes);
    expectWellFormed(result);
    expect(result.issues.filter((i) => i.line > 0).map((i) => [i.line, i.message.slice(0, 24)])).toEqual([
      [2, "malformed record JSON (U"],
      [3, "`action` is not of the t"],
      [4, "truncated record at the "],
    ]);
    expect(verdictOf(result, effectOn("/nowhere"))).toBe("INSUFFICIENT_EVIDENCE");

    const invalid = utf8(`{"trajectory": [${good}, ${JSON.stringify(step("ls", "x"))}]}`);
    invalid[invalid.length - 10] = 0xff;
    const r2 = parseSweAgent(invalid);
    expect(r2.issues.map((i) => i.message)).toContain("invalid UTF-8 in record; skipped");
    // The damaged record, and the file as a whole (line 0): past a break records may be missing.
    expect(r2.records).toMatchObject({ read: 3, used: 1, skipped: 2 });
  });

  it("parses command lines into the tool SWE-agent runs", () => {
    expect(commandLineCall("str_replace_editor create /repo/x.py --file_text 'a'")).toMatchObject({
      toolName: "str_replace_editor",
      toolInput: { command: "create", path: "/repo/x.py" },
    });
    expect(commandLineCall("cd /repo && pytest")).toMatchObject({
      toolName: "bash",
      toolInput: { command: "cd /repo && pytest" },
    });
    expect(outcomeOf({ observation: "bash: foo: command not found", executed: true })).toBe("FAILED");
    expect(outcomeOf({ observation: "The command 'sleep 999' was cancelled because it took more than 30 seconds." })).toBe(
      "UNKNOWN",
    );
    expect(outcomeOf({ observation: "", executed: true })).toBe("SUCCEEDED");
    expect(outcomeOf({ observation: "" })).toBe("UNKNOWN");
  });

  it("does not claim other formats' files", () => {
    expect(sweAgentImporter.detect('{"type":"session_meta","payload":{}}\n')).toBe(0);
    expect(sweAgentImporter.detect('[{"id":0,"source":"user","action":"message","args":{}}]')).toBe(0);
    expect(sweAgentImporter.detect('{"instance_id":"x","history":[{"id":1,"action":"run"}]}')).toBe(0);
    expect(
      sweAgentImporter.detect('{\n  "history": [\n    {\n      "role": "system",\n      "content": "x"'),
    ).toBeGreaterThanOrEqual(0.5);
  });
});

/** Byte ranges of every record (steps, history entries, info) of a .traj file. */
function recordRanges(bytes: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const key of ["trajectory", "history"]) {
    const open = locate(bytes, [key]);
    for (const el of splitArray(bytes, open).elements) out.push([el.start, el.end]);
  }
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe("SWE-agent importer: corruption never turns YES into NO", () => {
  // Only the `create reproduce_bug.py` act writes this path: once as a step, once as a history entry.
  const writes = (_s: unknown, a: SpanAnalysis) =>
    a.atoms.some((x) => x.effect === "FILE_WRITE" && !x.negated && x.normalized === "/pydicom__pydicom/reproduce_bug.py");
  const ranges = recordRanges(pydicom);

  it("holds for the full file", () => {
    expect(verdictOf(parseSweAgent(pydicom), writes)).toBe("YES");
  });

  it("holds for byte flips, cut records, broken JSON and wrong types in any records", () => {
    const corruption = fc.record({
      record: fc.nat({ max: ranges.length - 1 }),
      how: fc.constantFrom("flip", "cut", "break", "retype"),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(corruption, { minLength: 1, maxLength: 4 }), (cs) => {
        let bytes = pydicom;
        // Apply from the last record to the first so earlier ranges stay valid.
        const unique = [...new Map(cs.map((c) => [c.record, c])).values()].sort((a, b) => b.record - a.record);
        for (const c of unique) {
          const [start, end] = ranges[c.record]!;
          const record = bytes.subarray(start, end);
          const i = Math.min(record.length - 1, Math.floor(c.at * record.length));
          let replaced: Uint8Array;
          if (c.how === "flip") {
            replaced = record.slice();
            replaced[i] = 0xff;
          } else if (c.how === "cut") replaced = record.slice(0, Math.max(1, i));
          else if (c.how === "break") replaced = concat(record.subarray(0, i), utf8("}{"), record.subarray(i));
          else {
            const value = JSON.parse(new TextDecoder().decode(record)) as Record<string, unknown>;
            for (const k of ["action", "content", "thought", "observation"]) if (k in value) value[k] = 42;
            replaced = utf8(JSON.stringify(value));
          }
          bytes = concat(bytes.subarray(0, start), replaced, bytes.subarray(end));
        }
        const result = parseSweAgent(bytes);
        expect(result.records.read).toBe(result.records.used + result.records.ignored + result.records.skipped);
        expect(verdictOf(result, writes)).not.toBe("NO");
      }),
      { numRuns: 150 },
    );
  });

  // Each act is recorded twice (a trajectory step and its history entries), so deleting either
  // record keeps it. Deleting both records of one act is not detectable: SWE-agent links them by
  // position only, with no ids (tool_call_ids repeat in real files) and no count of steps.
  it("holds when any single record is deleted", () => {
    for (let r = 0; r < ranges.length; r++) {
      const [start, end] = ranges[r]!;
      let from = start;
      let to = end;
      // Take the separating comma with it.
      while (to < pydicom.length && pydicom[to] !== 0x2c && pydicom[to] !== 0x5d) to++;
      if (pydicom[to] === 0x2c) to++;
      else while (from > 0 && pydicom[from - 1] !== 0x2c) from--;
      if (pydicom[from - 1] === 0x2c && pydicom[to - 1] !== 0x2c) from--;
      const bytes = concat(pydicom.subarray(0, from), pydicom.subarray(to));
      expect(verdictOf(parseSweAgent(bytes), writes)).toBe("YES");
    }
  });
});
