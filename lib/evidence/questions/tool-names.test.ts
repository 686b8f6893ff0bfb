/**
 * Predicates on tool names alone ("did the agent call Bash?"): a call whose body does not spell
 * its tool's name (a Claude Code tool_use input, an OpenAI function's arguments) has no TOOL_CALL
 * atom, so the name is a fact of the span, and the citation is the whole call body.
 */
import { describe, expect, it } from "vitest";
import { analyzeSpan } from "../analyze";
import { bytes } from "../testkit";
import type { SpanInput } from "../types";
import { answerQuestion, type QuestionSpan } from "./answer";

const SHA = "d".repeat(64);

/** A verbatim span with the atoms ingest would have extracted from its real body. */
function span(seq: number, input: Omit<SpanInput, "body"> & { body: string }, extra: Partial<QuestionSpan> = {}): QuestionSpan {
  const body = bytes(input.body);
  const { atoms, classification } = analyzeSpan({ ...input, body });
  return {
    id: `s${seq}`,
    sessionId: "sess",
    seq,
    kind: input.kind,
    class: classification.class,
    transcriptState: "VERBATIM",
    provenance: "DURABLE",
    originalRetrievable: true,
    atoms,
    sha256: SHA,
    body,
    byteLength: body.length,
    ...(input.toolName ? { toolName: input.toolName } : {}),
    ...extra,
  };
}

const LS = JSON.stringify({ command: "ls -la /srv", description: "List the files" });
const bashCall = (seq: number, extra: Partial<QuestionSpan> = {}) =>
  span(seq, { kind: "TOOL_CALL", toolName: "Bash", toolInput: JSON.parse(LS), body: LS }, extra);
const READ = JSON.stringify({ file_path: "/srv/app/README.md" });
const readCall = (seq: number) => span(seq, { kind: "TOOL_CALL", toolName: "Read", toolInput: JSON.parse(READ), body: READ });
const reply = (seq: number, text: string) => span(seq, { kind: "MESSAGE", role: "assistant", body: text });
const scope = () => ({ sessions: [{ id: "sess", cwd: "/srv" }] });

describe("a predicate on tool names alone", () => {
  it("the body does not name its tool: no TOOL_CALL atom (what makes this a span-level fact)", () => {
    expect(bashCall(0).atoms.some((a) => a.kind === "TOOL_CALL")).toBe(false);
  });

  it("matches a call of the tool, whatever the case, and cites the whole call body", () => {
    const spans = [reply(0, "Let me look."), bashCall(1), readCall(2)];
    for (const name of ["Bash", "bash", "BASH"]) {
      const r = answerQuestion({ toolNames: [name] }, scope(), spans);
      expect(r.answer).toBe("YES");
      expect(r.citations).toEqual([
        expect.objectContaining({ spanId: "s1", byteStart: 0, byteEnd: bytes(LS).length, excerpt: LS, atomKind: "TOOL_CALL" }),
      ]);
    }
    expect(answerQuestion({ toolNames: ["Write"] }, scope(), spans).answer).toBe("NO");
  });

  it("a result of the tool, or prose that names it, is no call of it", () => {
    const result = span(1, { kind: "TOOL_RESULT", toolName: "Bash", body: "total 0" });
    const prose = reply(2, "I will call Bash next.");
    expect(answerQuestion({ toolNames: ["Bash"] }, scope(), [reply(0, "Hi"), result, prose]).answer).toBe("NO");
  });

  it("with outcomes: only calls that ended so", () => {
    const failed = bashCall(0, { outcome: "FAILED", exitCode: 2 });
    const ok = bashCall(1, { id: "s1", outcome: "SUCCEEDED", exitCode: 0 });
    const r = answerQuestion({ toolNames: ["Bash"], outcomes: ["FAILED"] }, scope(), [failed, ok]);
    expect(r.citations.map((c) => [c.spanId, c.outcome, c.exitCode, c.byteStart])).toEqual([["s0", "FAILED", 2, 0]]);
    expect(r.outcomes).toEqual({ FAILED: 1 });
    expect(answerQuestion({ toolNames: ["Bash"], outcomes: ["DECLINED"] }, scope(), [failed, ok]).answer).toBe("NO");
    expect(answerQuestion({ toolNames: ["Bash"] }, scope(), [failed, ok]).outcomes).toEqual({ SUCCEEDED: 1, FAILED: 1 });
  });

  it("with atom-level fields: the tool name qualifies the span, the atoms are cited", () => {
    const spans = [bashCall(0), readCall(1)];
    const commands = answerQuestion({ toolNames: ["Bash"], atomKinds: ["COMMAND"] }, scope(), spans);
    expect(commands.citations.map((c) => [c.spanId, c.excerpt])).toEqual([["s0", "ls -la /srv"]]);
    const paths = answerQuestion({ toolNames: ["Read"], valuePrefixes: ["/srv/app/"] }, scope(), spans);
    expect(paths.citations.map((c) => [c.spanId, c.excerpt])).toEqual([["s1", "/srv/app/README.md"]]);
    expect(answerQuestion({ toolNames: ["Bash"], valuePrefixes: ["/srv/app/"] }, scope(), spans).answer).toBe("NO");
    const pattern = answerQuestion({ toolNames: ["Bash"], commandPattern: "^ls\\b" }, scope(), spans);
    expect(pattern.citations.map((c) => c.excerpt)).toEqual(["ls -la /srv"]);
  });

  it("a call whose body names the tool is cited whole too, once", () => {
    const call = span(0, { kind: "TOOL_CALL", toolName: "write_file", body: 'write_file(path="/etc/x", mode="w")' });
    expect(call.atoms.some((a) => a.kind === "TOOL_CALL")).toBe(true);
    const r = answerQuestion([{ toolNames: ["write_file"] }, { toolNames: ["WRITE_FILE"] }], scope(), [call]);
    expect(r.citations.map((c) => [c.byteStart, c.byteEnd, c.predicateIndex])).toEqual([[0, call.body!.length, 0]]);
  });

  it("an honest summary's manifest cannot vouch for a call it replaced: the call blocks a NO", () => {
    const replaced = bashCall(0, {
      transcriptState: "RECLAIMED_HONEST",
      provenance: "LOST",
      originalRetrievable: false,
      droppedByManifest: [{ kind: "COMMAND", count: 1 }],
    });
    const r = answerQuestion({ toolNames: ["Bash"] }, scope(), [replaced]);
    expect(r.answer).toBe("INSUFFICIENT_EVIDENCE");
    expect(r.blockers.map((b) => b.spanId)).toEqual(["s0"]);
  });
});
