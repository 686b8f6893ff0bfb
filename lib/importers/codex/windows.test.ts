import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { codexImporter, parseCodexAcrossTurns } from "./index";
import { OPEN_TURNS } from "./calls";
import { fixture, only, parseBothWays, text } from "../shared/testkit";
import { utf8 } from "../shared/text";
import type { ImportWindow } from "../shared/types";

/** Every Codex fixture: the real rollouts and the hand-written samples. */
const CODEX_FIXTURES = readdirSync(new URL("../fixtures/codex/", import.meta.url))
  .filter((f) => f !== "SOURCES.md")
  .map((f) => `codex/${f}`);

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const line = (n: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(n), type, payload });
const ev = (n: number, payload: Record<string, unknown>) => line(n, "event_msg", payload);
const started = (n: number) => ev(n, { type: "task_started", turn_id: `t${n}` });
const complete = (n: number) => ev(n, { type: "task_complete", turn_id: `t${n}`, last_agent_message: null });
const user = (n: number, message: string) => [
  line(n, "response_item", { type: "message", role: "user", content: [{ type: "input_text", text: message }] }),
  ev(n, { type: "user_message", message, images: [] }),
];
const shell = (n: number, id: string, cmd: string) =>
  line(n, "response_item", {
    type: "function_call",
    name: "shell",
    call_id: id,
    arguments: JSON.stringify({ command: ["bash", "-lc", cmd] }),
  });
const output = (n: number, id: string, out: string) =>
  line(n, "response_item", { type: "function_call_output", call_id: id, output: out });
const meta = line(0, "session_meta", { id: "s1", timestamp: at(0), cwd: "/w" });

/** A rollout of these lines after its session_meta. */
const rolloutOf = (lines: string[]) => utf8(`${[meta, ...lines].join("\n")}\n`);

/** `count` turns of a prompt each, from second 10 on: turns in which nothing pairs. */
const quietTurns = (count: number) =>
  Array.from({ length: count }, (_, i) => [started(10 + 2 * i), ...user(10 + 2 * i, `turn ${i}`), complete(11 + 2 * i)]).flat();

/** The file's windows at the smallest size (each turn end that allows it), as seqs per window. */
function cutsOf(lines: string[]): { windows: ImportWindow[]; seqs: number[][] } {
  const generator = codexImporter.windows!(rolloutOf(lines), 1);
  const windows: ImportWindow[] = [];
  for (let step = generator.next(); !step.done; step = generator.next()) windows.push(step.value);
  return { windows, seqs: windows.map((w) => w.sessions.flatMap((s) => s.spans.map((span) => span.seq))) };
}

describe("Codex in windows", () => {
  it.each(CODEX_FIXTURES)("%s: windows cut at every turn end, concatenated, equal the whole file", (name) => {
    const { whole } = parseBothWays(codexImporter, fixture(name));
    expect(whole.sessions.reduce((n, s) => n + s.spans.length, 0)).toBeGreaterThan(0);
  });

  it("cuts the real interactive rollout at its turns", () => {
    const { windows } = parseBothWays(codexImporter, fixture("codex/codemie-tui-0.125.jsonl"));
    expect(windows).toBeGreaterThan(1);
  });

  it("cuts a real 33-turn Codex Desktop rollout at its turns; its compaction replaces spans of earlier windows", () => {
    const { whole, windows } = parseBothWays(codexImporter, fixture("codex/desktop-0.104-compacted-019c8a59.jsonl.gz"));
    expect(windows).toBeGreaterThan(20);
    const [compaction] = only(whole).compactions;
    expect(compaction!.replacedSeqs.length).toBeGreaterThan(100);
    expect(whole.records.skipped).toBe(0);
  });

  it("closes a window at each turn's end, and keeps a turn's prompt once", () => {
    const { seqs, windows } = cutsOf([
      started(1),
      ...user(1, "list the files"),
      shell(2, "c1", "ls"),
      output(3, "c1", "Exit code: 0\nOutput:\na\n"),
      complete(4),
      started(5),
      ...user(5, "list the files"),
      complete(6),
    ]);
    expect(seqs).toEqual([[0, 1, 2], [3]]);
    // The same prompt in the second turn is that turn's own message, not a duplicate of the first.
    expect(windows[1]!.sessions[0]!.spans.map(text)).toEqual(["list the files"]);
    expect(windows[0]!.sessions[0]!.spans[1]).toMatchObject({ kind: "TOOL_CALL", outcome: "SUCCEEDED", exitCode: 0 });
  });

  it("holds a window open while a call awaits its end in a later turn, then settles it from that end", () => {
    const { seqs, windows } = cutsOf([
      started(1),
      // The rollout records end events (the runtime's default persistence leaves them out).
      ev(1, { type: "exec_command_end", call_id: "user-shell", command: ["true"], exit_code: 0, aggregated_output: "" }),
      shell(2, "bg", "npm run dev"),
      output(3, "bg", "Process running with session ID 7\nOutput:\nready\n"),
      complete(4),
      started(5),
      ...user(5, "stop it"),
      ev(6, { type: "exec_command_end", call_id: "bg", exit_code: 143, aggregated_output: "killed", status: "failed" }),
      complete(7),
    ]);
    // The user's own command (a call and its result), then the background call, its output and the prompt.
    expect(seqs).toEqual([[0, 1, 2, 3, 4]]);
    expect(windows[0]!.sessions[0]!.spans[2]).toMatchObject({ kind: "TOOL_CALL", outcome: "FAILED", exitCode: 143 });
  });

  it(`settles a call left without records after ${OPEN_TURNS} turns; a record arriving later becomes its result`, () => {
    const lines = [
      started(1),
      shell(2, "lost", "rm -rf /etc/app"),
      complete(3),
      ...quietTurns(OPEN_TURNS + 1),
      ev(60, { type: "exec_command_end", call_id: "lost", exit_code: 0, aggregated_output: "done", status: "completed" }),
    ];
    const { seqs } = cutsOf(lines);
    // The call holds every window until it is settled, at the end of its OPEN_TURNS-th later turn.
    expect(seqs[0]).toEqual(Array.from({ length: OPEN_TURNS + 1 }, (_, i) => i));
    const { whole } = parseBothWays(codexImporter, rolloutOf(lines));
    const s = only(whole);
    expect(s.spans[0]).toMatchObject({ kind: "TOOL_CALL", outcome: "UNKNOWN" });
    const late = s.spans.at(-1)!;
    expect(late).toMatchObject({ kind: "TOOL_RESULT", sourceId: "lost", exitCode: 0, outcome: "UNKNOWN" });
    expect(text(late)).toBe("done");
    expect(whole.issues).toEqual([{ line: lines.length + 1, message: expect.stringMatching(/came after its turn ended/) }]);
    expect(s.skipped).toEqual([]);
  });

  it("keeps the end of a process left running that arrives after its call was settled, with its exit code", () => {
    const lines = [
      started(1),
      ev(1, { type: "exec_command_end", call_id: "quick", command: ["true"], exit_code: 0, aggregated_output: "" }),
      shell(2, "bg", "npm run migrate"),
      output(3, "bg", "Process running with session ID 9\nOutput:\n"),
      complete(4),
      ...quietTurns(OPEN_TURNS + 1),
      ev(60, { type: "exec_command_end", call_id: "bg", exit_code: 1, aggregated_output: "migration failed", status: "failed" }),
    ];
    const { whole } = parseBothWays(codexImporter, rolloutOf(lines));
    const late = only(whole).spans.at(-1)!;
    expect(late).toMatchObject({ kind: "TOOL_RESULT", sourceId: "bg", exitCode: 1 });
    expect(text(late)).toBe("migration failed");
  });

  it("leaves out of a compaction the messages its replacement history keeps, from earlier windows too", () => {
    const { whole, windows } = parseBothWays(
      codexImporter,
      utf8(
        [
          meta,
          started(1),
          ...user(1, "keep this prompt"),
          shell(2, "c1", "cat /etc/hosts"),
          output(3, "c1", "Exit code: 0\nOutput:\n127.0.0.1\n"),
          complete(4),
          started(5),
          ...user(5, "summarise"),
          line(6, "compacted", {
            message: "The agent read /etc/hosts.",
            replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: "keep this prompt" }] }],
          }),
          complete(7),
        ].join("\n"),
      ),
    );
    expect(windows).toBe(2);
    expect(only(whole).compactions).toEqual([{ summarySeq: 4, replacedSeqs: [1, 2, 3], occurredAt: new Date(at(6)) }]);
  });

  it("finishes a command left running with the exit a write_stdin in its turn reports (no end events recorded)", () => {
    // codex-rs answers exec_command "Process running with session ID N" and write_stdin with the
    // session's output, "Process exited with code N" once it ends: a git push answering a prompt.
    const call = (n: number, id: string, name: string, args: object) =>
      line(n, "response_item", { type: "function_call", name, call_id: id, arguments: JSON.stringify(args) });
    const turn = (n: number, exit: string) => [
      started(n),
      call(n, `push${n}`, "exec_command", { cmd: "git push origin main" }),
      output(n, `push${n}`, `Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID ${n}\nOutput:\nUsername: `),
      call(n, `in${n}`, "write_stdin", { session_id: n, chars: "octocat\n" }),
      output(n, `in${n}`, `Chunk ID: b\nWall time: 2.0 seconds\n${exit}\nOutput:\nmain -> main\n`),
      complete(n),
    ];
    const { whole } = parseBothWays(
      codexImporter,
      rolloutOf([...turn(1, "Process exited with code 0"), ...turn(3, "Process exited with code 128")]),
    );
    const pushes = only(whole).spans.filter((s) => s.kind === "TOOL_CALL" && s.toolName === "exec_command");
    expect(pushes.map((p) => [p.outcome, p.exitCode])).toEqual([
      ["SUCCEEDED", 0],
      ["FAILED", 128],
    ]);
  });

  it("settles at once a call an interrupted turn cut short, and keeps its end arriving after all as its result", () => {
    const lines = [
      started(1),
      shell(2, "cut", "rm -rf /etc/app"),
      ev(3, { type: "turn_aborted", reason: "interrupted" }),
      started(4),
      ...user(4, "go on"),
      complete(5),
      ev(6, { type: "exec_command_end", call_id: "cut", exit_code: 0, aggregated_output: "late", status: "completed" }),
    ];
    const { seqs, windows } = cutsOf(lines);
    expect(seqs).toEqual([[0], [1], [2]]);
    const spans = windows.flatMap((w) => w.sessions.flatMap((s) => s.spans));
    expect(spans[0]).toMatchObject({ sourceId: "cut", kind: "TOOL_CALL", outcome: "UNKNOWN" });
    expect(spans[2]).toMatchObject({ sourceId: "cut", kind: "TOOL_RESULT", outcome: "UNKNOWN", exitCode: 0 });
    parseBothWays(codexImporter, rolloutOf(lines));
  });

  /**
   * A long interactive rollout as the runtime writes it: per turn a prompt (item and event), an
   * answer (event and item), a unified exec command left running and polled, a command that fails,
   * a web search (item with its id, and its end event), a patch; now and then a background process
   * that ends turns later, and an interrupted turn. `ends`: whether end events are recorded (the
   * runtime's extended persistence; its default leaves them out).
   */
  function longRollout(turns: number, ends: boolean): Uint8Array {
    const lines = [meta];
    let n = 1;
    const later = new Map<number, string[]>();
    for (let t = 1; t <= turns; t++) {
      const end = (id: string, code: number) =>
        ends
          ? [
              ev(n, {
                type: "exec_command_end",
                call_id: id,
                exit_code: code,
                aggregated_output: `out ${id}`,
                status: "completed",
              }),
            ]
          : [];
      const running = (session: number) =>
        `Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID ${session}\nOutput:\n`;
      const exec = (id: string, cmd: string) =>
        line(n, "response_item", {
          type: "function_call",
          name: "exec_command",
          call_id: id,
          arguments: JSON.stringify({ cmd }),
        });
      const poll = (id: string, session: number) =>
        line(n, "response_item", {
          type: "function_call",
          name: "write_stdin",
          call_id: id,
          arguments: JSON.stringify({ session_id: session, chars: "" }),
        });
      lines.push(started(n), ...user(n, `prompt ${t}`));
      lines.push(ev(n, { type: "agent_message", message: `on it ${t}` }));
      lines.push(
        line(n, "response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: `on it ${t}` }] }),
      );
      lines.push(exec(`e${t}`, `npm test -- ${t}`), output(n, `e${t}`, running(1000 + t)), poll(`w${t}`, 1000 + t));
      lines.push(output(n, `w${t}`, running(1000 + t)), ...end(`e${t}`, 0));
      lines.push(
        exec(`f${t}`, `false ${t}`),
        output(n, `f${t}`, "Process exited with code 1\nOutput:\nfail\n"),
        ...end(`f${t}`, 1),
      );
      lines.push(
        line(n, "response_item", {
          type: "web_search_call",
          id: `ws${t}`,
          status: "completed",
          action: { type: "search", query: `q ${t}` },
        }),
        ev(n, { type: "web_search_end", call_id: `ws${t}`, query: `q ${t}` }),
      );
      lines.push(
        line(n, "response_item", {
          type: "custom_tool_call",
          name: "apply_patch",
          call_id: `p${t}`,
          input: `*** Begin Patch\n*** Add File: f${t}\n+x\n*** End Patch`,
        }),
        line(n, "response_item", {
          type: "custom_tool_call_output",
          call_id: `p${t}`,
          output: "Success. Updated the following files:\nA f",
        }),
      );
      if (ends) lines.push(ev(n, { type: "patch_apply_end", call_id: `p${t}`, success: true, stdout: "ok", stderr: "" }));
      if (t % 7 === 0) {
        lines.push(exec(`bg${t}`, "npm run dev"), output(n, `bg${t}`, running(5000 + t)));
        later.set(t + 3, end(`bg${t}`, 143));
      }
      lines.push(...(later.get(t) ?? []));
      if (t % 9 === 0) lines.push(exec(`cut${t}`, "sleep 100"), ev(n, { type: "turn_aborted", reason: "interrupted" }));
      else lines.push(ev(n, { type: "task_complete", last_agent_message: `on it ${t}` }));
      n++;
    }
    return utf8(`${lines.join("\n")}\n`);
  }

  it.each([true, false])(
    "a long rollout (end events recorded: %s) is cut at many turns and imports as its records paired across the whole file",
    (ends) => {
      const bytes = longRollout(40, ends);
      const { whole, windows } = parseBothWays(codexImporter, bytes);
      expect(windows).toBeGreaterThan(20);
      const across = parseCodexAcrossTurns(bytes);
      expect(whole).toEqual(across);
      const calls = only(whole).spans.filter((s) => s.kind === "TOOL_CALL");
      // A background process ending three turns later is settled from its end event, when recorded.
      expect(calls.find((c) => c.sourceId === "bg7")).toMatchObject(
        ends ? { outcome: "FAILED", exitCode: 143 } : { outcome: "UNKNOWN" },
      );
      expect(whole.issues).toEqual([]);
    },
  );

  it.each(CODEX_FIXTURES)("%s imports as its records paired across the whole file", (name) => {
    expect(codexImporter.parse(fixture(name))).toEqual(parseCodexAcrossTurns(fixture(name)));
  });
});
