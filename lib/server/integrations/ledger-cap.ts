/**
 * Which side-effecting actions a capped ledger keeps, and in what order: an agent's context holds
 * only so many lines, so the most consequential actions are kept first (the most recent of equal
 * weight), and what is kept is listed most recent first, as the agent reads its own history.
 */
import type { SideEffectKind } from "@/lib/evidence/types";

/** How much each kind of effect matters when the ledger must leave something out. */
export const EFFECT_WEIGHT: Record<SideEffectKind, number> = {
  PRIVILEGE_ESCALATION: 10,
  FILE_DELETE: 9,
  VCS_PUSH: 9,
  PACKAGE_REMOVE: 8,
  PERMISSION_CHANGE: 8,
  SERVICE_CONTROL: 8,
  DB_WRITE: 8,
  NETWORK_MUTATION: 7,
  PACKAGE_INSTALL: 7,
  FILE_MOVE: 6,
  VCS_COMMIT: 6,
  FILE_WRITE: 5,
  PROCESS_SPAWN: 4,
  SHELL_MUTATION: 3,
  UNKNOWN_TOOL: 2,
};

export const LEDGER_DEFAULT_LIMIT = 40;
export const LEDGER_MAX_LIMIT = 500;

export interface LedgerCandidate {
  seq: number | null;
  occurredAt: Date;
  effects: ReadonlyArray<{ effect: SideEffectKind }>;
}

/** An action weighs as its heaviest effect; one with none (unclassified) weighs nothing. */
const weight = (c: LedgerCandidate) => Math.max(0, ...c.effects.map((e) => EFFECT_WEIGHT[e.effect]));

/** Later first: by time, then by seq (actions of the same instant). */
const recency = (a: LedgerCandidate, b: LedgerCandidate) =>
  b.occurredAt.getTime() - a.occurredAt.getTime() || (b.seq ?? 0) - (a.seq ?? 0);

/** The `limit` (1 to LEDGER_MAX_LIMIT) actions a ledger keeps, most recent first. */
export function capLedger<T extends LedgerCandidate>(actions: readonly T[], limit: number): T[] {
  const cap = Math.max(1, Math.min(Math.floor(limit), LEDGER_MAX_LIMIT));
  const kept = [...actions].sort((a, b) => weight(b) - weight(a) || recency(a, b)).slice(0, cap);
  return kept.sort(recency);
}
