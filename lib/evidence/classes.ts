/**
 * Ordering of evidential classes. Class only ratchets upward automatically (docs/design.md,
 * "Vocabulary"), so every automatic combination of classes goes through `maxClass`.
 */
import { EVIDENTIAL_CLASSES, type EvidentialClass } from "./types";

const RANK: Record<EvidentialClass, number> = {
  NARRATIVE: 0,
  STRUCTURED: 1,
  SIDE_EFFECTING: 2,
};

/** NARRATIVE < STRUCTURED < SIDE_EFFECTING: how much evidence a span can carry. */
export function classRank(c: EvidentialClass): number {
  return RANK[c];
}

/** The higher of two classes; the join of the class lattice (commutative, idempotent, monotone). */
export function maxClass(a: EvidentialClass, b: EvidentialClass): EvidentialClass {
  return RANK[b] > RANK[a] ? b : a;
}

/** The highest class in a list; NARRATIVE for an empty one (nothing can only mean nothing of evidence). */
export function maxClassOf(classes: Iterable<EvidentialClass>): EvidentialClass {
  let best: EvidentialClass = "NARRATIVE";
  for (const c of classes) best = maxClass(best, c);
  return best;
}

/** True when `candidate` would not lower `current`: the only automatic moves allowed. */
export function isRatchetUp(current: EvidentialClass, candidate: EvidentialClass): boolean {
  return RANK[candidate] >= RANK[current];
}

export function isEvidentialClass(v: unknown): v is EvidentialClass {
  return typeof v === "string" && (EVIDENTIAL_CLASSES as readonly string[]).includes(v);
}
