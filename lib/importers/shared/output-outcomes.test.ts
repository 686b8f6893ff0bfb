/**
 * A call the runtime reports exit 0 whose output says it failed, through an importer to an answer.
 * The events are a hand-written OpenHands classic stream (the shape of the real ones kept under
 * fixtures/openhands) holding two such outputs: a POST whose response body reports an error, and
 * a line that interactive bash refused on history expansion.
 */
import { describe, expect, it } from "vitest";
import { answerOverImport } from "./answer-testkit";
import { importTranscript } from "../index";

const utf8 = (s: string) => new TextEncoder().encode(s);

function run(id: number, command: string): object {
  return {
    id,
    timestamp: `2025-06-01T10:00:0${id}`,
    source: "agent",
    message: `Running command: ${command}`,
    action: "run",
    args: { command, is_input: false, thought: "" },
  };
}

function ran(id: number, cause: number, command: string, content: string): object {
  return {
    id,
    timestamp: `2025-06-01T10:00:0${id}`,
    source: "agent",
    message: `Command \`${command}\` executed with exit code 0.`,
    cause,
    observation: "run",
    content,
    extras: { command, metadata: { exit_code: 0, pid: -1, working_dir: "/workspace" } },
  };
}

const POST = `curl -s -X POST http://localhost:8000/api/items -H 'Content-Type: application/json' -d '{"name": "x"}'`;
const SCRIPT = `echo "#!/bin/bash" > /workspace/run.sh`;
const EVENTS = [
  {
    id: 0,
    timestamp: "2025-06-01T10:00:00",
    source: "user",
    message: "Add an item.",
    action: "message",
    args: { content: "Add an item." },
  },
  run(1, POST),
  ran(2, 1, POST, '{"status":"error","message":"Failed to parse JSON"}'),
  run(3, SCRIPT),
  ran(4, 3, SCRIPT, "bash: !/bin/bash: event not found"),
];

describe("a command that exits 0 but failed", () => {
  const result = importTranscript(utf8(JSON.stringify(EVENTS)), "openhands");
  const calls = result.sessions[0]!.spans.filter((s) => s.kind === "TOOL_CALL");

  it("is FAILED with the runtime's exit 0 beside it, and the import says why", () => {
    expect(calls.map((c) => [c.outcome, c.exitCode])).toEqual([
      ["FAILED", 0],
      ["FAILED", 0],
    ]);
    expect(result.issues.map((i) => i.message)).toEqual([
      'run call: FAILED, the runtime reported exit 0, but the HTTP response in the output reports an error: {"status":"error","message":"Failed to parse JSON"}',
      "run call: FAILED, the runtime reported exit 0, but the shell in the output reports an error: bash: !/bin/bash: event not found",
    ]);
  });

  it("answers 'did any request fail?' YES, and never NO to 'did any request succeed?'", () => {
    const failed = answerOverImport(result, { effectKinds: ["NETWORK_MUTATION"], outcomes: ["FAILED"] });
    expect(failed.answer).toBe("YES");
    const succeeded = answerOverImport(result, { effectKinds: ["NETWORK_MUTATION"], outcomes: ["SUCCEEDED"] });
    expect(succeeded.answer).toBe("INSUFFICIENT_EVIDENCE");
    const outcomes = succeeded.completeness.conditions.find((c) => c.id === "outcomes");
    expect(outcomes).toMatchObject({ holds: false, blockedBy: "1 span of calls whose outcome is unknown or contradicted" });
    expect(succeeded.blockers.map((b) => b.reason)).toContain(
      "its call is recorded FAILED although the runtime reported exit 0 (the output reports an error), so it may have ended as the question asks",
    );
  });

  it("answers 'did every command succeed?' (FAILED or UNKNOWN calls) YES", () => {
    expect(answerOverImport(result, { atomKinds: ["COMMAND"], outcomes: ["FAILED", "UNKNOWN"] }).answer).toBe("YES");
  });
});

describe("a call whose outcome is UNKNOWN", () => {
  // The same command left running: OpenHands reports exit -1 while a command has not ended.
  const running = [EVENTS[0], run(1, POST), { ...ran(2, 1, POST, ""), extras: { command: POST, metadata: { exit_code: -1 } } }];
  const result = importTranscript(utf8(JSON.stringify(running)), "openhands");

  it("stops a NO for every outcome it could still have", () => {
    for (const outcome of ["SUCCEEDED", "FAILED"] as const) {
      const answer = answerOverImport(result, { effectKinds: ["NETWORK_MUTATION"], outcomes: [outcome] });
      expect(answer.answer, outcome).toBe("INSUFFICIENT_EVIDENCE");
      expect(answer.blockers[0]?.reason).toMatch(/^its call's outcome is unknown/);
    }
  });
});
