/**
 * The spans that block a question and are decided by counting, not one by one: unchecked replaced
 * spans (unchecked.ts) and calls of tools whose effects are not known that no predicate could cite
 * (unknown-blockers.ts, which also finds the calls some predicate could match, for the
 * candidates). Each kind is counted per session in SQL; only the rows an answer's window can hold
 * are read and judged by the engine.
 */
import type { Blocker, CompiledPredicate } from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { Scope, ScopeSessionRow } from "./scope";
import type { RunQuery } from "./stream";
import { countUnchecked, readUnchecked } from "./unchecked";
import { readCountedBlockers, type UnknownCandidates } from "./unknown-blockers";
import { unknownToolsMatter } from "./candidates";

/**
 * Their exact number per session, and the blockers of the first `window` of each kind in the
 * engine's order (sessions as in scope, then seq), handed to `emit`. A session's blockers of either
 * kind past the room its earlier sessions leave in the window (counted blockers alone, a lower
 * bound on all of them) cannot be among an answer's first `window`, whatever else blocks.
 */
export async function judgeCountedBlockers(
  query: RunQuery,
  predicates: CompiledPredicate[],
  sessions: ScopeSessionRow[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  window: number,
  atOnce: number,
  tellCandidates: (candidates: UnknownCandidates) => void,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (blocker: Blocker) => void,
): Promise<Map<string, number>> {
  // Where unknown tools' calls can block, one statement counts both kinds and reads the first of
  // each that the window can hold: the room each session leaves is then exact for both.
  if (unknownToolsMatter(predicates)) {
    const counted = (await readCountedBlockers(query, predicates, sessions, scope, policy, now, window, atOnce, cwdOf, emit))!;
    tellCandidates(counted.candidates);
    const totals = new Map(counted.unchecked);
    for (const [id, n] of counted.unknown) totals.set(id, (totals.get(id) ?? 0) + n);
    return totals;
  }
  const unchecked = await countUnchecked(query, predicates, scope, now);
  const wanted: Array<{ sessionId: string; limit: number }> = [];
  let room = window;
  for (const s of sessions) {
    if (room <= 0) break;
    const u = unchecked.get(s.id) ?? 0;
    if (u > 0) wanted.push({ sessionId: s.id, limit: Math.min(u, room) });
    room -= u;
  }
  await readUnchecked(query, predicates, scope, now, wanted, cwdOf, emit);
  return unchecked;
}
