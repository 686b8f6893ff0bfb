import Link from "next/link";
import { OUTCOME_LABELS, TOOL_OUTCOMES, type ToolOutcome } from "@/lib/evidence/outcomes";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS, TRANSCRIPT_STATES } from "@/lib/evidence/types";
import type { SpanListQuery } from "@/lib/server/dashboard";
import { humanize, provenanceWords } from "./format";

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

/** One select of the span list's filters: any, or one value of an enum in words (its code on hover). */
function EnumSelect({
  label,
  name,
  values,
  value,
  words = humanize,
}: {
  label: string;
  name: string;
  values: readonly string[];
  value: string | undefined;
  /** A value as the page shows it elsewhere (a provenance status as its badge names it: "no pointer"). */
  words?: (value: string) => string;
}) {
  return (
    <label>
      {label}
      <br />
      <select name={name} defaultValue={value ?? ""}>
        <option value="">Any</option>
        {values.map((v) => (
          <option key={v} value={v} title={v}>
            {words(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Narrows a session's transcript, through the URL (a GET form), so a filtered list can be shared:
 * kind, class, provenance status, transcript state, one agent, call outcomes, and the order by seq.
 */
export function TranscriptFilters({
  action,
  agents,
  agentId,
  outcomes,
  query,
  clearHref,
  clearAllHref,
}: {
  /** The session page's path. */
  action: string;
  agents: ReadonlyArray<{ agentId: string; agentType: string | null }>;
  agentId: string | null | undefined;
  outcomes: readonly ToolOutcome[];
  /** The list's other filters and order, as the URL gave them. */
  query: Pick<SpanListQuery, "kind" | "class" | "provenance" | "state" | "sort">;
  /** The list without its agent and outcome filters; and without any filter. */
  clearHref: string;
  clearAllHref: string;
}) {
  const chosen = new Set(outcomes);
  const filtered = Boolean(query.kind || query.class || query.provenance || query.state);
  return (
    <form
      method="get"
      action={`${action}#spans`}
      className="panel"
      aria-label="Filter the transcript"
      style={{ display: "flex", gap: 16, alignItems: "end", flexWrap: "wrap", marginBottom: 12 }}
    >
      <EnumSelect label="Kind" name="kind" values={SPAN_KINDS} value={query.kind} />
      <EnumSelect label="Class" name="class" values={EVIDENTIAL_CLASSES} value={query.class} />
      <EnumSelect
        label="Provenance"
        name="provenance"
        values={PROVENANCE_STATUSES}
        value={query.provenance}
        words={provenanceWords}
      />
      <EnumSelect label="Transcript state" name="state" values={TRANSCRIPT_STATES} value={query.state} />
      <label>
        Order
        <br />
        <select name="sort" defaultValue={query.sort}>
          <option value="seq">By seq, first first</option>
          <option value="seq-desc">By seq, last first</option>
        </select>
      </label>
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
      {filtered || agentId !== undefined || outcomes.length > 0 ? <Link href={clearAllHref}>Show every span</Link> : null}
    </form>
  );
}
