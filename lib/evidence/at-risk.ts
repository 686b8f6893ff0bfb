/**
 * At risk (docs/design.md, "Evidence horizon"): a held, unpinned original of an evidence-bearing span
 * whose TTL ends before its evidence horizon. Still retrievable now, so a retention owner can pin
 * or extend it; once the TTL passes, the evidence it backs is LOST for the rest of the horizon.
 * Spelled in SQL once, as custodian_span_at_risk (the clock-free part, written from the same
 * clauses as the status rule: lib/server/provenance/at-risk-sql.ts), which the session counters and
 * the retention page read; expiry-rules.db.test.ts holds both sides equal.
 */
import { expiresBeforeHorizonMs, ttlPassed } from "./expiry";
import type { EvidentialClass, OriginalFacts, RetentionPolicy } from "./types";

export interface AtRiskFacts {
  class: EvidentialClass;
  occurredAt: Date;
  /** The original as held; null when it was never received or has been deleted. */
  original: OriginalFacts | null;
}

/**
 * The part of the rule the clock does not move (custodian_span_at_risk): an evidence-bearing span
 * whose original's bytes are still there (found damaged too), unpinned, with a TTL before the
 * horizon. The session counters keep it, so an original stays counted past its TTL until swept.
 */
export function atRiskWhateverTheClock(facts: AtRiskFacts, policy: RetentionPolicy): boolean {
  // Narrative spans carry no evidence: the gate reclaims them whatever their original's fate.
  if (facts.class === "NARRATIVE") return false;
  const original = facts.original;
  if (original === null || !original.present || original.pinned || original.expiresAt === null) return false;
  return expiresBeforeHorizonMs(original.expiresAt.getTime(), facts.occurredAt.getTime(), policy);
}

export function isAtRisk(facts: AtRiskFacts, policy: RetentionPolicy, now: Date): boolean {
  // Damaged bytes are already LOST, and so is an original past its TTL: there is nothing left to keep.
  const original = facts.original;
  if (original === null || !original.hashMatches || ttlPassed(original, now)) return false;
  return atRiskWhateverTheClock(facts, policy);
}
