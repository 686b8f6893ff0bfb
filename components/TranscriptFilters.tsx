import Link from "next/link";
import { OUTCOME_LABELS, TOOL_OUTCOMES, type ToolOutcome } from "@/lib/evidence/outcomes";

/** The agent filter's value in the URL: the main agent, or one subagent by id (prefixed, so no id can pass for "main"). */
export const MAIN_AGENT_PARAM = "main";
const SUBAGENT_PREFIX = "sub:";

export function agentParam(agentId: string | null): string {
  return agentId === null ? MAIN_AGENT_PARAM : `${SUBAGENT_PREFIX}${agentId}`;
}

/** The agent a URL's `agent` value names: null for the main agent, a subagent's id, or undefined for all. */
export function agentFromParam(value: string | string[] | undefined): string | null | undefined {
  if (typeof value !== "string") return undefined;
  if (value === MAIN_AGENT_PARAM) return null;
  if (value.startsWith(SUBAGENT_PREFIX) && value.length > SUBAGENT_PREFIX.length) return value.slice(SUBAGENT_PREFIX.length);
  return undefined;
}

/** The outcomes a URL's `outcome` values name, in their usual order; unknown values are dropped. */
export function outcomesFromParam(value: string | string[] | undefined): ToolOutcome[] {
  const given = new Set([value ?? []].flat());
  return TOOL_OUTCOMES.filter((o) => given.has(o));
}

/**
 * Narrows a session's transcript to one agent and/or call outcomes, through the URL (a GET form),
 * so a filtered list can be shared; a grid cell chosen before is kept.
 */
export function TranscriptFilters({
  action,
  agents,
  agentId,
  outcomes,
  keep,
  clearHref,
}: {
  /** The session page's path. */
  action: string;
  agents: ReadonlyArray<{ agentId: string; agentType: string | null }>;
  agentId: string | null | undefined;
  outcomes: readonly ToolOutcome[];
  /** Other filters of the page to carry along (the grid cell). */
  keep: Record<string, string | undefined>;
  clearHref: string;
}) {
  const chosen = new Set(outcomes);
  return (
    <form
      method="get"
      action={`${action}#spans`}
      className="panel"
      aria-label="Filter the transcript"
      style={{ display: "flex", gap: 16, alignItems: "end", flexWrap: "wrap", marginBottom: 12 }}
    >
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <label>
        Agent
        <br />
        <select name="agent" defaultValue={agentId === undefined ? "" : agentParam(agentId)}>
          <option value="">All agents</option>
          <option value={MAIN_AGENT_PARAM}>Main agent</option>
          {agents.map((a) => (
            <option key={a.agentId} value={agentParam(a.agentId)}>
              Subagent {a.agentId}
              {a.agentType ? ` (${a.agentType})` : ""}
            </option>
          ))}
        </select>
      </label>
      <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
        <legend>Call outcome</legend>
        <div style={{ display: "flex", gap: 12, flexWrap: "wrap" }}>
          {TOOL_OUTCOMES.map((o) => (
            <label key={o} title={`Outcome ${o}`}>
              <input type="checkbox" name="outcome" value={o} defaultChecked={chosen.has(o)} /> {OUTCOME_LABELS[o]}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="button">
        Filter
      </button>
      {agentId !== undefined || outcomes.length > 0 ? <Link href={clearHref}>Show every agent and outcome</Link> : null}
    </form>
  );
}
