import { describe, expect, it } from "vitest";
import { type Blocker, type Citation, concludeAnswer } from "@/lib/evidence/questions";
import type { EvidenceQueryResult } from "./ask";
import { isPresentedAnswer, LIST_REACH, presentAnswer, windowFor } from "./present";
import { ANSWER_WINDOW } from "./window";

const SESSION = "0b7e9d2c-1111-4a2b-9c3d-000000000000";
const span = (i: number) => `0b7e9d2c-1111-4a2b-9c3d-${String(i).padStart(12, "0")}`;

/** An answer keeping `kept` of `count` citations, and two blockers (one whose call's outcome is in doubt). */
function result(kept: number, count = kept): EvidenceQueryResult {
  const citations: Citation[] = Array.from({ length: kept }, (_, i) => ({
    sessionId: SESSION,
    spanId: span(i),
    seq: i,
    byteStart: 0,
    byteEnd: 4,
    sha256: "ab".repeat(32),
    excerpt: "/etc",
    atomKind: "PATH",
    predicateIndex: 0,
    spanKind: "TOOL_CALL",
    outcome: "SUCCEEDED",
    exitCode: 0,
  }));
  const blocker = (i: number, outcomeInDoubt: boolean): Blocker => ({
    sessionId: SESSION,
    spanId: span(100_000 + i),
    seq: 100_000 + i,
    class: "SIDE_EFFECTING",
    provenance: "EXPIRING",
    transcriptState: "RECLAIMED_HONEST",
    dropped: [{ kind: "PATH", count: 2 }],
    originalHeld: true,
    unblockBy: "pin",
    reason: "its original's TTL passed",
    ...(outcomeInDoubt ? { outcomeInDoubt: true } : {}),
  });
  const blockers = [blocker(0, false), blocker(1, true)];
  return {
    ...concludeAnswer(citations, blockers, 10, [], [], false),
    outcomes: { SUCCEEDED: count },
    citationCount: count,
    blockerCount: 2,
    question: { id: "custom", title: "Wrote under /etc", anyOf: [{ valuePrefixes: ["/etc"] }] },
    sessionsInScope: 1,
  };
}

describe("presentAnswer", () => {
  it("presents the page asked for of each list, where it starts and the offset of the next", () => {
    const answer = presentAnswer(result(30), { citations: { offset: 10, limit: 10 }, blockers: { offset: 0, limit: 1 } });
    expect(answer.citations.map((c) => c.seq)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(answer.pages).toEqual({ citations: { offset: 10, next: 20 }, blockers: { offset: 0, next: 1 } });
    expect(presentAnswer(result(30), { citations: { offset: 20, limit: 10 } }).pages.citations).toEqual({
      offset: 20,
      next: null,
    });
    expect(answer).toMatchObject({ citationCount: 30, blockerCount: 2, sessionsInScope: 1, outcomeSummary: expect.any(String) });
  });

  it("gives each blocker every field, the outcome in doubt only where it is, and each citation its bytes", () => {
    const answer = presentAnswer(result(1));
    expect(answer.blockers[0]).toEqual({
      sessionId: SESSION,
      spanId: span(100_000),
      seq: 100_000,
      class: "SIDE_EFFECTING",
      provenance: "EXPIRING",
      dropped: [{ kind: "PATH", count: 2 }],
      originalHeld: true,
      unblockBy: "pin",
      reason: "its original's TTL passed",
    });
    expect(answer.blockers[1]).toMatchObject({ outcomeInDoubt: true });
    expect(answer.citations[0]).toMatchObject({ bytesBase64: Buffer.from("/etc").toString("base64"), outcome: "SUCCEEDED" });
  });

  it("keeps more rows only for a page past the default window, and never past LIST_REACH", () => {
    const far = { citations: { offset: ANSWER_WINDOW, limit: 50 } };
    expect(windowFor({})).toBe(ANSWER_WINDOW);
    expect(windowFor(far)).toBe(ANSWER_WINDOW + 50);
    expect(windowFor({ blockers: { offset: 10 * LIST_REACH, limit: 50 } })).toBe(LIST_REACH);
    // The last listed page has no next, though more are counted past it.
    const last = { citations: { offset: LIST_REACH - 50, limit: 50 } };
    expect(presentAnswer(result(LIST_REACH, LIST_REACH + 7), last).pages.citations).toEqual({
      offset: LIST_REACH - 50,
      next: null,
    });
  });

  it("knows its own shape from one stored before there was one presenter", () => {
    const presented = presentAnswer(result(3));
    expect(isPresentedAnswer(JSON.parse(JSON.stringify(presented)))).toBe(true);
    const { pages: _p, ...withoutPages } = presented;
    expect(isPresentedAnswer(withoutPages)).toBe(false);
    const { sessionsInScope: _s, ...withoutSessions } = presented;
    expect(isPresentedAnswer(withoutSessions)).toBe(false);
    for (const old of [null, "YES", [], { answer: "YES", citations: [], blockers: [] }])
      expect(isPresentedAnswer(old)).toBe(false);
  });
});
