/**
 * At risk (docs/design.md, "Evidence horizon"): a held, unpinned original of an evidence-bearing span
 * whose TTL ends before its evidence horizon. Still retrievable now, so a retention owner can pin
 * or extend it; once the TTL passes, the evidence it backs is LOST for the rest of the horizon.
 * The retention page and the session counters compute the same in SQL.
 */
import { horizonMs } from "./policy";
import type { EvidentialClass, OriginalFacts, RetentionPolicy } from "./types";

export interface AtRiskFacts {
  class: EvidentialClass;
  occurredAt: Date;
  /** The original as held; null when it was never received or has been deleted. */
  original: OriginalFacts | null;
}

export function isAtRisk(facts: AtRiskFacts, policy: RetentionPolicy, now: Date): boolean {
  // Narrative spans carry no evidence: the gate reclaims them whatever their original's fate.
  if (facts.class === "NARRATIVE") return false;
  const original = facts.original;
  // Gone or damaged bytes are already LOST: there is nothing left to keep.
  if (original === null || !original.present || !original.hashMatches) return false;
  if (original.pinned || original.expiresAt === null) return false;
  const expiresMs = original.expiresAt.getTime();
  // Past its TTL it is lost, not at risk; expiring exactly at the horizon keeps the evidence answerable.
  return expiresMs > now.getTime() && expiresMs < horizonMs(facts.occurredAt.getTime(), policy);
}
