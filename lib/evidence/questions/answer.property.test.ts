import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { atom } from "../testkit";
import {
  EVIDENTIAL_CLASSES,
  PROVENANCE_STATUSES,
  SPAN_KINDS,
  TRANSCRIPT_STATES,
  type AtomKind,
  type SideEffectKind,
} from "../types";
import { answerQuestion, isCheckable, type QuestionSpan } from "./answer";
import { CANNED_QUESTIONS } from "./canned";

const arbAtom = fc
  .record({
    kind: fc.constantFrom<AtomKind>("PATH", "COMMAND", "NUMBER", "TOOL_ARG", "URL"),
    value: fc.constantFrom("/etc/hosts", "/work/app/a.txt", "/usr/bin/x", "42", "https://x.test/"),
    effect: fc.option(fc.constantFrom<SideEffectKind>("FILE_WRITE", "FILE_DELETE", "NETWORK_MUTATION", "SERVICE_CONTROL"), {
      nil: undefined,
    }),
    negated: fc.boolean(),
  })
  .map(({ kind, value, effect, negated }) =>
    atom(kind, value, { ...(effect ? { effect } : {}), ...(negated ? { negated } : {}) }),
  );

const arbSpans: fc.Arbitrary<QuestionSpan[]> = fc
  .array(
    fc.record({
      kind: fc.constantFrom(...SPAN_KINDS),
      class: fc.constantFrom(...EVIDENTIAL_CLASSES),
      transcriptState: fc.constantFrom(...TRANSCRIPT_STATES),
      provenance: fc.constantFrom(...PROVENANCE_STATUSES),
      originalRetrievable: fc.boolean(),
      atoms: fc.array(arbAtom, { maxLength: 4 }),
      skip: fc.boolean(),
      dropped: fc.option(
        fc.array(fc.record({ kind: fc.constantFrom<AtomKind>("PATH", "NUMBER"), count: fc.integer({ min: 1, max: 3 }) })),
        {
          nil: undefined,
        },
      ),
    }),
    { maxLength: 8 },
  )
  .map((rows) => {
    let seq = 0;
    return rows.map((r, i) => {
      seq += r.skip && i % 3 === 0 ? 2 : 1;
      const s: QuestionSpan = {
        id: `s${i}`,
        sessionId: "sess",
        seq,
        kind: r.kind,
        class: r.class,
        transcriptState: r.transcriptState,
        provenance: r.provenance,
        originalRetrievable: r.originalRetrievable,
        atoms: r.atoms,
        sha256: "0".repeat(64),
      };
      if (r.dropped) s.droppedByManifest = r.dropped;
      return s;
    });
  });

const questions = Object.values(CANNED_QUESTIONS);

describe("answer properties", () => {
  it("cites only checkable, non-summary spans and only non-negated atoms", () => {
    fc.assert(
      fc.property(arbSpans, fc.constantFrom(...questions), (spans, q) => {
        const r = answerQuestion(q, { sessions: [{ id: "sess", cwd: "/work/app" }] }, spans);
        const byId = new Map(spans.map((s) => [s.id, s]));
        for (const c of r.citations) {
          const s = byId.get(c.spanId)!;
          if (s.kind === "SUMMARY" || !isCheckable(s)) return false;
          const a = s.atoms.find((x) => x.byteStart === c.byteStart && x.byteEnd === c.byteEnd && !x.negated);
          if (!a) return false;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it("answers exactly one way, consistent with citations, blockers and gaps", () => {
    fc.assert(
      fc.property(arbSpans, fc.constantFrom(...questions), (spans, q) => {
        const r = answerQuestion(q, { sessions: [{ id: "sess", cwd: "/work/app" }] }, spans);
        expect(r.scopeComplete).toBe(r.blockers.length === 0 && r.gaps.length === 0 && !r.noSpansInScope);
        if (r.answer === "YES") return r.citations.length > 0;
        if (r.answer === "NO") return r.citations.length === 0 && r.scopeComplete;
        return r.citations.length === 0 && !r.scopeComplete;
      }),
      { numRuns: 2000 },
    );
  });

  it("carries a completeness case that holds exactly when the answer could be NO, and names what fails", () => {
    fc.assert(
      fc.property(arbSpans, fc.constantFrom(...questions), fc.boolean(), (spans, q, skipped) => {
        const session = { id: "sess", cwd: "/work/app", ...(skipped ? { skippedRecords: [{ line: 1, reason: "cut" }] } : {}) };
        const r = answerQuestion(q, { sessions: [session] }, spans);
        expect(r.completeness.holds).toBe(r.scopeComplete);
        if (r.answer === "NO") expect(r.completeness.conditions.every((c) => c.holds)).toBe(true);
        if (r.answer !== "INSUFFICIENT_EVIDENCE") return;
        // Never an insufficient answer with nothing named: a failing condition, and its items listed.
        const failing = r.completeness.conditions.filter((c) => !c.holds);
        expect(failing.length).toBeGreaterThan(0);
        for (const c of failing) expect(c.blockedBy).toBeTruthy();
        expect(r.blockers.length + r.gaps.length + r.skippedRecords.length + (r.noSpansInScope ? 1 : 0)).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("NO is never given while an unchecked side-effecting span stands without an honest manifest", () => {
    fc.assert(
      fc.property(arbSpans, (spans) => {
        const r = answerQuestion(CANNED_QUESTIONS["modified-system-config"], { sessions: [{ id: "sess" }] }, spans);
        if (r.answer !== "NO") return true;
        return !spans.some(
          (s) =>
            s.kind !== "SUMMARY" &&
            s.class === "SIDE_EFFECTING" &&
            !isCheckable(s) &&
            !(s.transcriptState === "RECLAIMED_HONEST" && s.droppedByManifest !== undefined),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
