/**
 * Codex rollouts that lack an end of their session: real files (fixtures/codex) whole, and cut.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "../shared/answer-testkit";
import { importTranscript } from "../index";
import { endsBeforeSession } from "../shared/partial-end";
import { startsAfterSession } from "../shared/partial-start";
import { expectWellFormed, fixture, only } from "../shared/testkit";

const encode = (lines: string[]) => new TextEncoder().encode(`${lines.join("\n")}\n`);
const linesOf = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trimEnd().split("\n");
const marks = (bytes: Uint8Array) => only(importTranscript(bytes, "codex")).skipped.map((s) => [s.line, s.message]);
const canned = (bytes: Uint8Array, keepEndMarks = true) => {
  const result = importTranscript(bytes, "codex");
  const sessions = result.sessions.map((s) => ({
    ...s,
    skipped: s.skipped.filter((k) => keepEndMarks || !endsBeforeSession(k)),
  }));
  return Object.values(CANNED_QUESTIONS).map((q) => answerOverImport({ ...result, sessions }, q).answer);
};

describe("a Codex rollout whose last turn never closes", () => {
  it("is incomplete at its end: Codex Desktop 0.104's file, its last turn started and not completed", () => {
    const bytes = fixture("codex/desktop-0.104-unfinished-turns-019c8a53.jsonl.gz");
    const result = importTranscript(bytes);
    expectWellFormed(result);
    expect(result.records.read).toBe(837);
    expect(marks(bytes)).toEqual([
      [838, expect.stringMatching(/^the file ends before its session ended: the turn started at line 835 has no task_complete/)],
    ]);
    // Without the mark, what the file holds answered NO to questions its missing end may answer YES.
    expect(canned(bytes, false)).toContain("NO");
    expect(canned(bytes)).not.toContain("NO");
  });

  it("is whole when every turn it started closed; cut inside a turn, it is not", () => {
    const lines = linesOf(fixture("codex/codemie-tui-0.125.jsonl"));
    expect(marks(encode(lines))).toEqual([]);
    expect(canned(encode(lines))).toContain("NO");
    // Line 20 starts the second turn; cut at 200 lines, its task_complete (line 386) is gone.
    const cut = marks(encode(lines.slice(0, 200)));
    expect(cut).toEqual([[201, expect.stringMatching(/^the file ends before its session ended: the turn started at line 20 /)]]);
    expect(canned(encode(lines.slice(0, 200)), false)).toContain("NO");
    expect(canned(encode(lines.slice(0, 200)))).not.toContain("NO");
  });

  it("cannot tell its end when its runtime records no turn events (0.47)", () => {
    const lines = linesOf(fixture("codex/yoavf-pomodoro-0.47.jsonl"));
    expect(marks(encode(lines.slice(0, 80)))).toEqual([]);
  });
});

describe("a Codex rollout cut before its session_meta", () => {
  it("is incomplete at its start, and its answers are never NO", () => {
    const lines = linesOf(fixture("codex/codemie-tui-0.125.jsonl"));
    const cut = encode(lines.slice(1));
    const result = importTranscript(cut, "codex");
    expectWellFormed(result);
    expect(
      only(result)
        .skipped.filter(startsAfterSession)
        .map((s) => s.line),
    ).toEqual([1]);
    expect(only(result).skipped.filter(endsBeforeSession)).toEqual([]);
    expect(canned(cut)).not.toContain("NO");
  });
});
