/**
 * Provenance status of a span: the gate's columns (docs/design.md, "Vocabulary"). Always derived from
 * the facts and the clock, never stored, so it cannot go stale.
 */
import { expiresBeforeHorizonMs, ttlPassed, ttlPassedMs } from "./expiry";
import type { OriginalFacts, ProvenanceStatus, RetentionPolicy } from "./types";

export interface ProvenanceFacts {
  /** A provenance pointer links the (candidate or actual) summary to this span. */
  hasPointer: boolean;
  /** The original as Custodian holds it; null when it was never received or has been deleted. */
  original: OriginalFacts | null;
  occurredAt: Date;
}

/**
 * NONE without a pointer (even if the bytes exist: nothing links the summary to them);
 * LOST when the original is missing, corrupt, or past its TTL and not pinned;
 * DURABLE when pinned, without TTL, or retrievable until at least the evidence horizon;
 * EXPIRING when retrievable now but the TTL ends before the horizon.
 */
export function provenanceStatus(facts: ProvenanceFacts, policy: RetentionPolicy, now: Date): ProvenanceStatus {
  return provenanceStatusMs(facts.hasPointer, facts.original, facts.occurredAt.getTime(), policy, now.getTime());
}

/** Allocation-free core of `provenanceStatus`, shared with the gate's hot path. */
export function provenanceStatusMs(
  hasPointer: boolean,
  original: OriginalFacts | null,
  occurredAtMs: number,
  policy: RetentionPolicy,
  nowMs: number,
): ProvenanceStatus {
  if (!hasPointer) return "NONE";
  // A pin is a hold on bytes we have; it cannot bring back bytes that are gone or corrupt.
  if (original === null || !original.present || !original.hashMatches) return "LOST";
  if (original.pinned) return "DURABLE";
  const expiresAt = original.expiresAt;
  if (expiresAt === null) return "DURABLE";
  const expiresMs = expiresAt.getTime();
  if (ttlPassedMs(expiresMs, nowMs)) return "LOST";
  // Expiring exactly at the horizon still keeps the evidence answerable for the whole horizon.
  return expiresBeforeHorizonMs(expiresMs, occurredAtMs, policy) ? "EXPIRING" : "DURABLE";
}

/** Present, intact, and not past its TTL (or pinned): the bytes can be served as evidence now. */
export function isRetrievable(original: OriginalFacts | null, now: Date): boolean {
  if (original === null || !original.present || !original.hashMatches) return false;
  return !ttlPassed(original, now);
}

/**
 * Weakness rank: DURABLE 0 < EXPIRING 1 < LOST 2 < NONE 3. NONE is weaker than LOST because a
 * LOST span still has a pointer: we know which bytes and which hash the claim rests on, so it can
 * be identified and verified if the bytes resurface (a backup, the runtime's own log); with NONE
 * there is nothing to look for at all.
 */
const WEAKNESS: Record<ProvenanceStatus, number> = { DURABLE: 0, EXPIRING: 1, LOST: 2, NONE: 3 };

export function provenanceWeakness(s: ProvenanceStatus): number {
  return WEAKNESS[s];
}

/**
 * The weakest status in the list: a chain of evidence is only as strong as its weakest root.
 * An empty list gives NONE: a claim that rests on no original points at nothing.
 */
export function weakestStatus(list: Iterable<ProvenanceStatus>): ProvenanceStatus {
  let weakest: ProvenanceStatus | null = null;
  for (const s of list) {
    if (weakest === null || WEAKNESS[s] > WEAKNESS[weakest]) weakest = s;
  }
  return weakest ?? "NONE";
}
