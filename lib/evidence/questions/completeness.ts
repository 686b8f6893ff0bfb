/**
 * The completeness case a NO carries (docs/design.md, "A NO carries its completeness case"): each
 * condition a proof of absence rests on, whether it holds, and what blocks it where it does not.
 * An answer is NO only when every condition holds; INSUFFICIENT_EVIDENCE always names at least one
 * that fails, with the spans, gaps or records that make it fail listed beside the answer.
 */

export const COMPLETENESS_CONDITIONS = ["scope", "records", "seq", "spans", "outcomes", "effects"] as const;
export type CompletenessConditionId = (typeof COMPLETENESS_CONDITIONS)[number];

export interface CompletenessCondition {
  id: CompletenessConditionId;
  holds: boolean;
  /** The condition, as a reviewer reads it. */
  statement: string;
  /** Where it fails: what blocks it (the items themselves are the answer's lists). */
  blockedBy?: string;
}

export interface CompletenessCase {
  /** Every condition holds: nothing found is a proof of absence. */
  holds: boolean;
  conditions: CompletenessCondition[];
}

const STATEMENTS: Record<CompletenessConditionId, string> = {
  scope: "Something was in scope: at least one span.",
  records:
    "Every session in scope was read whole, from its first record to its last: no skipped or unreadable records, no result without its call, no parent outside the file, no file that starts after its session began.",
  seq: "No seq is missing from any session in scope.",
  spans: "Every span that could hold a match can be checked: it is verbatim, or its original is retrievable.",
  outcomes: "Every call the question could cite has a known outcome that its signals agree on.",
  effects: "Every call that could have had the effect asked about is of a tool whose effects are known.",
};

/** The case for an answer's findings (its blockers, gaps and skipped records as listed). */
export function completenessCase(found: {
  /** As Blocker: an outcome in doubt, and an unknown tool's call, are conditions of their own. */
  blockers: ReadonlyArray<{ outcomeInDoubt?: true; unknownEffect?: true }>;
  gaps: ReadonlyArray<{ sessionId: string }>;
  skippedRecords: ReadonlyArray<{ sessionId: string }>;
  noSpansInScope: boolean;
}): CompletenessCase {
  const doubted = found.blockers.filter((b) => b.outcomeInDoubt === true).length;
  const unknownTools = found.blockers.filter((b) => b.unknownEffect === true).length;
  const unchecked = found.blockers.length - doubted - unknownTools;
  const skippedSessions = new Set(found.skippedRecords.map((r) => r.sessionId)).size;
  const gapSessions = new Set(found.gaps.map((g) => g.sessionId)).size;
  const fails: Partial<Record<CompletenessConditionId, string>> = {};
  if (found.noSpansInScope) fails.scope = "no spans in scope";
  if (found.skippedRecords.length > 0)
    fails.records = `${plural(found.skippedRecords.length, "record")} skipped or missing in ${plural(skippedSessions, "session")}`;
  if (found.gaps.length > 0) fails.seq = `${plural(found.gaps.length, "seq gap")} in ${plural(gapSessions, "session")}`;
  if (unchecked > 0) fails.spans = `${plural(unchecked, "span")} that could have matched cannot be checked`;
  if (doubted > 0) fails.outcomes = `${plural(doubted, "span")} of calls whose outcome is unknown or contradicted`;
  if (unknownTools > 0) fails.effects = `${plural(unknownTools, "call")} of tools whose effects are not known`;
  const conditions = COMPLETENESS_CONDITIONS.map((id): CompletenessCondition => {
    const blockedBy = fails[id];
    return { id, holds: blockedBy === undefined, statement: STATEMENTS[id], ...(blockedBy ? { blockedBy } : {}) };
  });
  return { holds: conditions.every((c) => c.holds), conditions };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
