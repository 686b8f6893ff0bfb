/**
 * Real Claude Code 2.1 sessions of entireio/cli (fixtures/claude-code/SOURCES.md), asked what they
 * did. Each test answered wrong before the rule it names: a failing test run behind `| tail` was a
 * success, a `git push` was no network mutation, nor were documents and comments written to Linear
 * through its MCP server.
 */
import { describe, expect, it } from "vitest";
import { CANNED_QUESTIONS } from "@/lib/evidence/questions/canned";
import { answerOverImport } from "../shared/answer-testkit";
import { importTranscript } from "../index";
import { fixture } from "../shared/testkit";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("a 2.1.37 session that ran failing tests through a pipe, then pushed", () => {
  const result = importTranscript(fixture("claude-code/entire-2.1.37-piped-tests-and-push-0a76fbfe.jsonl.gz"), "claude-code");
  const spans = result.sessions[0]!.spans;

  it("has the piped test runs UNKNOWN with the reason, though the runtime said they succeeded", () => {
    const piped = spans.filter((s) => s.kind === "TOOL_CALL" && (s.sourceLine === 28 || s.sourceLine === 292));
    expect(piped.map((s) => s.outcome)).toEqual(["UNKNOWN", "UNKNOWN"]);
    expect(text(piped[0]!.body)).toContain("mise run test:integration 2>&1 | tail");
    const warnings = result.issues.filter((i) => i.line === 28 || i.line === 292).map((i) => i.message);
    expect(warnings).toEqual([
      "Bash call: UNKNOWN, exit 0 may be the last command's (`mise run test:integration 2>&1` runs into a pipe without pipefail); the output reports an error: resume_test.go:677: resume --force failed: exit status 1",
      expect.stringMatching(
        /^Bash call: UNKNOWN, exit 0 may be the last command's \(`go test -tags=integration .* runs into a pipe without pipefail\); the output reports an error: resume_test\.go:387: resume failed: exit status 1$/,
      ),
    ]);
  });

  it("answers YES to 'did any command fail or end unknown?' citing them (it answered NO)", () => {
    const answer = answerOverImport(result, { outcomes: ["FAILED", "UNKNOWN"] });
    expect(answer.answer).toBe("YES");
    const lines = new Set(answer.citations.map((c) => spans[c.seq]!.sourceLine));
    expect(lines.has(28) && lines.has(292)).toBe(true);
  });

  it("answers YES to the network-mutations question, citing the push (it answered NO)", () => {
    const answer = answerOverImport(result, CANNED_QUESTIONS["network-mutations"]);
    expect(answer.answer).toBe("YES");
    const push = answer.citations.find((c) => c.effect === "VCS_PUSH");
    expect(push?.excerpt).toContain("push");
    expect(text(spans[push!.seq]!.body)).toContain("git -C /Users/alex/workspace/cli/.worktrees/1 push");
  });
});

describe("a 2.1.12 session that wrote to Linear through its MCP server", () => {
  const result = importTranscript(fixture("claude-code/entire-2.1.12-linear-mcp-8b418ea5.jsonl.gz"), "claude-code");
  const spans = result.sessions[0]!.spans;

  it("answers YES to the network-mutations question, citing each write and no read (it answered NO)", () => {
    const answer = answerOverImport(result, CANNED_QUESTIONS["network-mutations"]);
    expect(answer.answer).toBe("YES");
    const cited = [...new Set(answer.citations.map((c) => spans[c.seq]!.toolName))].sort();
    expect(cited).toEqual([
      "mcp__linear-server__create_comment",
      "mcp__linear-server__create_document",
      "mcp__linear-server__update_document",
    ]);
    expect(new Set(answer.citations.map((c) => spans[c.seq]!.sourceLine))).toEqual(new Set([36, 91, 108]));
  });

  it("blocks no side-effect question with its reads (get_issue, list_documents, search_documentation)", () => {
    for (const q of Object.values(CANNED_QUESTIONS))
      expect(
        answerOverImport(result, q).blockers.filter((b) => b.unknownEffect),
        q.id,
      ).toEqual([]);
  });
});
