import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/core/hash";
import type { ImportedSpan } from "@/lib/importers/shared/types";
import { planSession, rewrites, type StoredSeqSpan } from "./otlp-reconcile";

const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, s));
const body = (text: string) => new TextEncoder().encode(text);

/** The mapping's spans: seq = position, sourceLine = the position the importer numbers. */
const mapped = (...texts: string[]): ImportedSpan[] =>
  texts.map((text, seq) => ({ seq, kind: "MESSAGE", role: "user", occurredAt: at(seq), body: body(text), sourceLine: seq + 1 }));

/** A stored span of `text` at the time the mapping gives it, with the seq and receipt number given. */
const stored = (text: string, second: number, seq: number, sourceLine: number | null): StoredSeqSpan => ({
  id: `span-${text}`,
  seq,
  kind: "MESSAGE",
  role: "user",
  toolName: null,
  occurredAt: at(second),
  sha256: sha256Hex(body(text)),
  outcome: null,
  exitCode: null,
  sourceLine,
  transcriptState: "VERBATIM",
  pinned: false,
});

describe("planSession", () => {
  it("in order: the new spans come after the stored ones, nothing moves", () => {
    const plan = planSession([stored("a", 0, 0, 101)], mapped("a", "b"), new Set([101, 102]));
    expect(plan.reconciled).toBe(true);
    expect(rewrites(plan)).toBe(false);
    expect(plan.fresh.map((f) => [f.seq, f.imported.seq])).toEqual([[1, 1]]);
    expect([...plan.refs]).toEqual([[0, { id: "span-a", sha256: sha256Hex(body("a")) }]]);
  });

  it("an earlier span late: it takes its place, the stored ones move after it; a span the mapping no longer gives goes", () => {
    const plan = planSession(
      [stored("b", 1, 0, 102), stored("c", 2, 1, 103), stored("stale", 5, 2, 103)],
      mapped("a", "b", "c"),
      new Set([101, 102, 103]),
    );
    expect(plan.fresh.map((f) => f.seq)).toEqual([0]);
    expect(plan.moves).toEqual([
      { id: "span-b", seq: 1 },
      { id: "span-c", seq: 2 },
    ]);
    expect(plan.stale).toEqual(["span-stale"]);
  });

  it("a session holding a span of another path (or of a forgotten raw span) is only appended to", () => {
    for (const foreign of [stored("x", 9, 0, 7), stored("x", 9, 0, null)]) {
      const plan = planSession([foreign, stored("b", 1, 1, 102)], mapped("a", "b"), new Set([101, 102]));
      expect(plan.reconciled).toBe(false);
      expect(rewrites(plan)).toBe(false);
      expect(plan.fresh.map((f) => [f.seq, f.imported.seq])).toEqual([[2, 0]]);
    }
  });

  it("a session whose spans were acted on (replaced, kept by the gate, held) is only appended to: nothing is moved or deleted", () => {
    const acted: Array<Partial<StoredSeqSpan>> = [
      { transcriptState: "RECLAIMED" },
      { transcriptState: "PRESERVED" },
      { pinned: true },
    ];
    for (const act of acted) {
      const plan = planSession(
        [{ ...stored("b", 1, 0, 102), ...act }, stored("stale", 5, 1, 103)],
        mapped("a", "b"),
        new Set([101, 102, 103]),
      );
      expect(plan.reconciled, JSON.stringify(act)).toBe(false);
      expect(rewrites(plan)).toBe(false);
      expect(plan.stale).toEqual([]);
      expect(plan.fresh.map((f) => [f.seq, f.imported.seq])).toEqual([[2, 0]]);
    }
  });
});
