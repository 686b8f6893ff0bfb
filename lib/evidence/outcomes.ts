/**
 * What became of a tool call (see docs/design.md, "Outcomes"). Derived by each importer from the call's
 * paired result and the format's own fields; a call with nothing to go on is UNKNOWN, never
 * SUCCEEDED, because an evidence question must not read silence as success.
 */

export const TOOL_OUTCOMES = ["SUCCEEDED", "FAILED", "DECLINED", "NOT_RUN", "UNKNOWN"] as const;
export type ToolOutcome = (typeof TOOL_OUTCOMES)[number];

/** Outcomes in the order a person reads a tally of attempts: what happened, then what did not. */
export const OUTCOME_LABELS: Readonly<Record<ToolOutcome, string>> = {
  SUCCEEDED: "succeeded",
  FAILED: "failed",
  DECLINED: "declined",
  NOT_RUN: "not run",
  UNKNOWN: "outcome unknown",
};

/**
 * The outcome a result implies when all it says is an exit code and/or an error flag: exit 0
 * without an error flag succeeded, any other exit code or an error flag failed, neither is unknown.
 */
export function outcomeOfResult(result: { exitCode?: number; isError?: boolean }): ToolOutcome {
  if (result.isError === true) return "FAILED";
  if (result.exitCode === undefined) return result.isError === false ? "SUCCEEDED" : "UNKNOWN";
  return result.exitCode === 0 ? "SUCCEEDED" : "FAILED";
}

/**
 * The outcome cannot be relied on to say how the call ended: nothing said (UNKNOWN: no result, still
 * running, or signals that leave it open), or its signals disagree (FAILED although the runtime's
 * exit code was 0: the output reported the error; see output-signals.ts). A question that filters
 * on outcomes cannot answer NO past such a call, since it may have ended as asked.
 */
export function outcomeInDoubt(call: { outcome?: ToolOutcome; exitCode?: number }): boolean {
  return call.outcome === "UNKNOWN" || (call.outcome === "FAILED" && call.exitCode === 0);
}

/** "3 attempts: 2 failed, 1 succeeded": the tally a YES gives of the calls it cites. */
export function describeOutcomes(counts: Partial<Record<ToolOutcome, number>>): string {
  const total = TOOL_OUTCOMES.reduce((n, o) => n + (counts[o] ?? 0), 0);
  const parts = [...TOOL_OUTCOMES]
    .filter((o) => (counts[o] ?? 0) > 0)
    .sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0))
    .map((o) => `${counts[o]} ${OUTCOME_LABELS[o]}`);
  return `${total} attempt${total === 1 ? "" : "s"}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}
