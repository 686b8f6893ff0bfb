/**
 * An interactive command finished by later input: `git push` asks for a username and a password,
 * the agent types both as input to the running process (OpenHands `run` with `is_input`), and only
 * the last input's observation carries the exit code. Hand-written events in the shape of the real
 * classic stream kept as fixtures/openhands/classic-basic-gui-mode.json, whose event 14 (a server
 * left running) gives the exit -1 observation's metadata as the runtime writes it.
 */
import { describe, expect, it } from "vitest";
import { answerOverImport } from "./shared/answer-testkit";
import { IMPORTERS, importTranscript } from "./index";
import { fixture, parseBothWays } from "./shared/testkit";
import { utf8 } from "./shared/text";

const WAITING =
  "\n[The command has no new output after 30 seconds. You may wait longer to see additional output by sending empty command '', send other commands to interact with the current process, send keys to interrupt/kill the command, or use the timeout parameter in execute_bash for future commands.]";

const at = (id: number) => `2025-06-01T10:00:${String(id).padStart(2, "0")}`;
const run = (id: number, command: string, isInput: boolean | "true") => ({
  id,
  timestamp: at(id),
  source: "agent",
  message: `Running command: ${command}`,
  action: "run",
  args: { command, is_input: isInput, thought: "", blocking: false, hidden: false, confirmation_state: "confirmed" },
});
const ran = (id: number, cause: number, command: string, content: string, exitCode: number) => ({
  id,
  timestamp: at(id),
  source: "agent",
  message: `Command \`${command}\` executed with exit code ${exitCode}.`,
  cause,
  observation: "run",
  content,
  extras: {
    command,
    metadata: { exit_code: exitCode, pid: -1, working_dir: "/workspace/app", suffix: exitCode === -1 ? WAITING : "" },
  },
});

const PUSH = "git push origin main";
const events = (finalExit: number, finalOutput: string) => [
  { id: 0, timestamp: at(0), source: "user", message: "Push the fix.", action: "message", args: { content: "Push the fix." } },
  run(1, PUSH, false),
  ran(2, 1, PUSH, "Username for 'https://github.com': ", -1),
  run(3, "octocat", true),
  ran(4, 3, "octocat", "Password for 'https://octocat@github.com': ", -1),
  run(5, "ghp_token", "true"),
  ran(6, 5, "ghp_token", finalOutput, finalExit),
];

const pushed = "To https://github.com/octocat/app.git\n   1a2b3c4..5d6e7f8  main -> main";
const pushCall = (bytes: Uint8Array) =>
  importTranscript(bytes, "openhands").sessions[0]!.spans.find((s) => s.kind === "TOOL_CALL" && s.seq === 1)!;

describe("a command finished by later input", () => {
  const result = importTranscript(utf8(JSON.stringify(events(0, pushed))), "openhands");

  it("takes the outcome of the input that ended it", () => {
    const push = pushCall(utf8(JSON.stringify(events(0, pushed))));
    expect(new TextDecoder().decode(push.body)).toContain(PUSH);
    expect([push.outcome, push.exitCode]).toEqual(["SUCCEEDED", 0]);
    const failed = pushCall(
      utf8(JSON.stringify(events(128, "fatal: Authentication failed for 'https://github.com/octocat/app.git/'"))),
    );
    expect([failed.outcome, failed.exitCode]).toEqual(["FAILED", 128]);
  });

  it("answers 'did a push succeed?' YES with the push itself cited", () => {
    const answer = answerOverImport(result, { effectKinds: ["VCS_PUSH"], outcomes: ["SUCCEEDED"] });
    expect(answer.answer).toBe("YES");
    expect(answer.citations.map((c) => [c.seq, c.outcome])).toContainEqual([1, "SUCCEEDED"]);
  });

  it("stays UNKNOWN while no input ended it, and then blocks a NO", () => {
    const unfinished = events(0, pushed).slice(0, 5);
    const r = importTranscript(utf8(JSON.stringify(unfinished)), "openhands");
    expect(r.sessions[0]!.spans.find((s) => s.seq === 1)?.outcome).toBe("UNKNOWN");
    expect(answerOverImport(r, { effectKinds: ["VCS_PUSH"], outcomes: ["SUCCEEDED"] }).answer).toBe("INSUFFICIENT_EVIDENCE");
  });
});

describe("a Claude Code background shell read until it ends", () => {
  // Lines 116-119 of the real 1.0.98 session (fixtures/claude-code/kimuson-...): a Bash call sent to
  // the background, its "running in background" result, a BashOutput call and its result.
  const real = new TextDecoder().decode(fixture("claude-code/kimuson-1.0.98-inline-sidechains-fe5e1c67.jsonl.gz")).split("\n");
  const records = real.slice(115, 119).map((l) => JSON.parse(l) as Record<string, unknown>);
  const bashCall = (bytes: Uint8Array) =>
    importTranscript(bytes, "claude-code").sessions[0]!.spans.find((s) => s.kind === "TOOL_CALL" && s.toolName === "Bash")!;
  const withRead = (content: string, status: string, exitCode: number | null) => {
    const read = structuredClone(records[3]!) as { message: { content: Array<{ content: string }> }; toolUseResult: object };
    read.message.content[0]!.content = content;
    read.toolUseResult = { shellId: "bash_1", command: "pnpm dev --port 3001", status, exitCode, stdout: "", stderr: "" };
    return utf8([...records.slice(0, 3), read].map((r) => JSON.stringify(r)).join("\n"));
  };

  it("stays UNKNOWN while the reads say it is running (the real records)", () => {
    expect(bashCall(utf8(real.slice(115, 119).join("\n"))).outcome).toBe("UNKNOWN");
  });

  it("takes the exit code the read that saw it end reports", () => {
    // The shape BashOutput's result takes once the shell has ended (hand-written: the real session killed its shells).
    const failed = bashCall(
      withRead(
        "<status>completed</status>\n\n<exit_code>1</exit_code>\n\n<stderr>\nError: port 3001 in use\n</stderr>",
        "completed",
        1,
      ),
    );
    expect([failed.outcome, failed.exitCode]).toEqual(["FAILED", 1]);
    const ok = bashCall(withRead("<status>completed</status>\n\n<exit_code>0</exit_code>", "completed", 0));
    expect([ok.outcome, ok.exitCode]).toEqual(["SUCCEEDED", 0]);
    expect(bashCall(withRead("<status>killed</status>", "killed", null)).outcome).toBe("UNKNOWN");
  });

  it("is held in one window with the read that ends it: windows equal the whole file", () => {
    const bytes = withRead("<status>completed</status>\n\n<exit_code>1</exit_code>", "completed", 1);
    const { whole } = parseBothWays(IMPORTERS["claude-code"], bytes);
    expect(whole.sessions[0]!.spans.find((s) => s.toolName === "Bash")?.outcome).toBe("FAILED");
  });
});
