/**
 * The clock's two rules about an original, each spelled once for the pure engine (docs/design.md,
 * "Evidence horizon"). Their SQL spellings are EXPIRY_RULE and STATUS_RULE.beforeHorizon in
 * lib/server/provenance/status-sql.ts (custodian_span_at_risk and custodian_grid_code are written
 * from them); lib/server/provenance/expiry-rules.db.test.ts holds the two sides equal at the
 * boundary instants.
 * - The TTL has passed at its instant: an unpinned original expiring at or before now is LOST, not
 *   EXPIRING, and awaits the sweeper.
 * - An expiry before the span's evidence horizon leaves the evidence short of it (EXPIRING, at
 *   risk); expiring exactly at the horizon keeps the evidence answerable for the whole horizon.
 */
import { horizonMs } from "./policy";
import type { OriginalFacts, RetentionPolicy } from "./types";

/** The TTL ending at `expiresMs` has passed at `nowMs`. */
export function ttlPassedMs(expiresMs: number, nowMs: number): boolean {
  return expiresMs <= nowMs;
}

/** An expiry at `expiresMs` falls before the evidence horizon of a span that occurred at `occurredAtMs`. */
export function expiresBeforeHorizonMs(expiresMs: number, occurredAtMs: number, policy: RetentionPolicy): boolean {
  return expiresMs < horizonMs(occurredAtMs, policy);
}

/** The original is unpinned and its TTL has passed (its bytes, if still there, await deletion). */
export function ttlPassed(original: Pick<OriginalFacts, "pinned" | "expiresAt">, now: Date): boolean {
  return !original.pinned && original.expiresAt !== null && ttlPassedMs(original.expiresAt.getTime(), now.getTime());
}
