/** A call of a tool whose effects are not known blocks every NO to a question about side effects. */
import { describe, expect, it } from "vitest";
import { analyzeSpan } from "../analyze";
import { bytes } from "../testkit";
import { answerQuestion, type QuestionSpan } from "./answer";
import { CANNED_QUESTIONS, CANNED_QUESTION_IDS } from "./canned";

function call(seq: number, toolName: string, body: string, outcome: QuestionSpan["outcome"] = "SUCCEEDED"): QuestionSpan {
  const { atoms, classification } = analyzeSpan({ body: bytes(body), kind: "TOOL_CALL", toolName });
  return {
    id: `s${seq}`,
    sessionId: "sess",
    seq,
    kind: "TOOL_CALL",
    class: classification.class,
    transcriptState: "VERBATIM",
    provenance: "DURABLE",
    originalRetrievable: true,
    atoms,
    sha256: "c".repeat(64),
    body: bytes(body),
    toolName,
    outcome,
  };
}

const scope = { sessions: [{ id: "sess", cwd: "/work/app", seqFrom: 0, seqTo: 1 }] };
const read = call(0, "Read", '{"file_path":"/work/app/README.md"}');
// A real tool of context7's MCP server: its name says nothing of what it does.
const unknown = call(1, "mcp__context7__resolve-library-id", '{"libraryName":"go-git"}');

describe("an unknown tool's call", () => {
  it("blocks NO to every canned side-effect question, naming the tool, under a completeness condition of its own", () => {
    for (const id of CANNED_QUESTION_IDS) {
      const answer = answerQuestion(CANNED_QUESTIONS[id], scope, [read, unknown]);
      expect(answer.answer, id).toBe("INSUFFICIENT_EVIDENCE");
      expect(answer.blockers, id).toMatchObject([{ spanId: "s1", unknownEffect: true }]);
      expect(answer.blockers[0]!.reason).toContain("mcp__context7__resolve-library-id");
      expect(answer.completeness.conditions.find((c) => c.id === "effects")).toMatchObject({
        holds: false,
        blockedBy: "1 call of tools whose effects are not known",
      });
    }
  });

  it("is cited, not blocking, by a question about unknown tools; a question on named tools or commands is not its to block", () => {
    expect(answerQuestion({ effectKinds: ["UNKNOWN_TOOL"] }, scope, [read, unknown]).answer).toBe("YES");
    expect(answerQuestion({ toolNames: ["Write"] }, scope, [read, unknown]).answer).toBe("NO");
    expect(answerQuestion({ effectKinds: ["FILE_DELETE"], commandPattern: "rm" }, scope, [read, unknown]).answer).toBe("NO");
  });

  it("does not block a question for outcomes the call is known not to have had", () => {
    const failedDeletes = { effectKinds: ["FILE_DELETE" as const], outcomes: ["FAILED" as const] };
    expect(answerQuestion(failedDeletes, scope, [read, unknown]).answer).toBe("NO");
    const unsure = call(1, "mcp__context7__resolve-library-id", '{"libraryName":"go-git"}', "UNKNOWN");
    expect(answerQuestion(failedDeletes, scope, [read, unsure]).answer).toBe("INSUFFICIENT_EVIDENCE");
  });

  it('blocks even when its body names nothing (Codex writes an empty call as arguments "{}")', () => {
    const bare = call(1, "acme__refund_invoice", "{}");
    expect(bare.atoms.map((a) => [a.kind, a.effect, a.text])).toEqual([["TOOL_CALL", "UNKNOWN_TOOL", "{}"]]);
    expect(answerQuestion(CANNED_QUESTIONS["deleted-files"], scope, [read, bare]).blockers).toMatchObject([
      { spanId: "s1", unknownEffect: true },
    ]);
  });

  it("leaves a session of known tools answering NO", () => {
    expect(
      answerQuestion(CANNED_QUESTIONS["deleted-files"], { sessions: [{ ...scope.sessions[0]!, seqTo: 0 }] }, [read]).answer,
    ).toBe("NO");
  });
});
