/**
 * Files that start after their session began. A real Claude Code session (fixtures/claude-code,
 * spotter-tool-heavy.jsonl) cut so that it opens with a tool result: its call, and everything before
 * it, is in no file we hold, so no question may answer NO over what is left.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions";
import { answerOverImport } from "./shared/answer-testkit";
import { importTranscript } from "./index";
import { expectWellFormed, fixture, only } from "./shared/testkit";

const lines = new TextDecoder().decode(fixture("claude-code/spotter-tool-heavy.jsonl")).split("\n");
const cannedAnswers = (bytes: Uint8Array) =>
  Object.values(CANNED_QUESTIONS).map((q) => answerOverImport(importTranscript(bytes), q).answer);

describe("a Claude Code file that starts with a tool result whose call came before it", () => {
  // Line 11 of the real file: the result of the session's first Bash call, its parent the call.
  const cut = new TextEncoder().encode(lines.slice(10).join("\n"));
  const result = importTranscript(cut);

  it("keeps the result and marks the session incomplete at its start, naming why", () => {
    expectWellFormed(result);
    expect(only(result).spans[0]?.kind).toBe("TOOL_RESULT");
    expect(only(result).skipped.map((s) => [s.line, s.message])).toEqual([
      [1, expect.stringMatching(/^tool_result for call toolu_018GZVh9ymkrdx1TnR8reg5Y, which is not in the file/)],
      [1, expect.stringMatching(/^the file starts after its session began: the first record's parentUuid 8565db80-/)],
    ]);
  });

  it("answers no canned question NO, though the whole file answers every one NO", () => {
    expect(cannedAnswers(fixture("claude-code/spotter-tool-heavy.jsonl"))).toEqual(Array(6).fill("NO"));
    expect(cannedAnswers(cut)).toEqual(Array(6).fill("INSUFFICIENT_EVIDENCE"));
    const answer = answerOverImport(result, CANNED_QUESTIONS["deleted-files"]);
    expect(answer.skippedRecords.map((s) => s.line)).toEqual([1, 1]);
  });
});

describe("an Aider history cut at either end", () => {
  const history = new TextDecoder().decode(fixture("aider/afi-core.aider.chat.history.md"));
  const lines = history.split("\n");

  it("that starts after its session began (no header before its first record) is incomplete at its start", () => {
    // Line 20 of the real history: a reply of its first session, its header and prompt cut off.
    const result = importTranscript(new TextEncoder().encode(lines.slice(19).join("\n")), "aider");
    expect(result.sessions[0]!.skipped.map((s) => s.message)).toEqual([
      expect.stringMatching(/^records before any `# aider chat started at` header: the history starts after its session began/),
    ]);
  });

  it("that ends inside a line has lost the end of its last record", () => {
    // Cut inside line 20 (a reply, which has no closing mark): Aider ends every write with a line break.
    const cut = `${lines.slice(0, 19).join("\n")}\n${lines[19]!.slice(0, 10)}`;
    const result = importTranscript(new TextEncoder().encode(cut), "aider");
    expect(result.issues.at(-1)?.message).toMatch(/the file ends inside this record's last line \(cut\); skipped$/);
    expect(result.sessions[0]!.skipped).toHaveLength(1);
  });
});
