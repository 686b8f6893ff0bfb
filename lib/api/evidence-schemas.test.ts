import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_ROWS } from "@/lib/server/questions";
import { EvidenceAnswerSchema, EvidenceQuerySchema, QuestionJobSchema } from "./evidence-schemas";
import { LIMITS } from "./schemas";

describe("the evidence answer's schemas", () => {
  it("default each list to the rows the presenter gives when no window is asked for", () => {
    expect(LIMITS.evidenceListDefault).toBe(DEFAULT_PAGE_ROWS);
    const parsed = EvidenceQuerySchema.parse({ question: { canned: "deleted-files" }, page: { citations: {} } });
    expect(parsed.page.citations).toEqual({ offset: 0, limit: DEFAULT_PAGE_ROWS });
  });

  it("keep every field of an answer and of a job: a response parsed through them is unchanged", () => {
    const answer = {
      answer: "INSUFFICIENT_EVIDENCE",
      question: { id: "custom", title: "t" },
      citations: [],
      blockers: [
        {
          sessionId: "0b7e9d2c-1111-4a2b-9c3d-000000000001",
          spanId: "0b7e9d2c-1111-4a2b-9c3d-000000000002",
          seq: 3,
          class: "SIDE_EFFECTING",
          provenance: "EXPIRING",
          dropped: [{ kind: "PATH", count: 2 }],
          originalHeld: true,
          unblockBy: "pin",
          reason: "r",
          outcomeInDoubt: true,
        },
      ],
      citationCount: 0,
      blockerCount: 1,
      pages: { citations: { offset: 0, next: null }, blockers: { offset: 0, next: null } },
      gaps: [],
      checkedSpans: 4,
      sessionsInScope: 1,
      scopeComplete: false,
      skippedRecords: [],
      noSpansInScope: false,
      completeness: { holds: false, conditions: [{ id: "spans", holds: false, statement: "s", blockedBy: "b" }] },
      outcomes: {},
      outcomeSummary: "",
    };
    expect(EvidenceAnswerSchema.parse(answer)).toEqual(answer);
    const job = {
      id: "0b7e9d2c-1111-4a2b-9c3d-000000000003",
      status: "DONE",
      candidateSpans: 4,
      sessionsDone: 1,
      sessionsTotal: 1,
      answer,
      error: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:01.000Z",
    };
    expect(QuestionJobSchema.parse(job)).toEqual(job);
  });
});
