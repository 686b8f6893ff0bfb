import { OUTCOME_LABELS, type ToolOutcome } from "@/lib/evidence/outcomes";

/** How each outcome reads at a glance: done, went wrong, or never happened as asked. */
const OUTCOME_TONE: Readonly<Record<ToolOutcome, string>> = {
  SUCCEEDED: "safe",
  FAILED: "lost",
  DECLINED: "risk",
  NOT_RUN: "",
  UNKNOWN: "risk",
};

/** A call's outcome as people read it ("failed"), its code on hover, and its exit code when known. */
export function CallOutcome({ outcome, exitCode }: { outcome: ToolOutcome | null | undefined; exitCode?: number | null }) {
  if (!outcome) return <span style={{ color: "var(--muted)" }}>—</span>;
  return (
    <span data-outcome={outcome}>
      <span className={`badge ${OUTCOME_TONE[outcome]}`} title={`Outcome ${outcome}`}>
        {OUTCOME_LABELS[outcome]}
      </span>
      {exitCode !== null && exitCode !== undefined ? (
        <>
          {" "}
          <span className="mono">exit {exitCode}</span>
        </>
      ) : null}
    </span>
  );
}

/** The agent that produced a span: the session's main agent, or a subagent by id and type. */
export function AgentName({ agentId, agentType }: { agentId: string | null | undefined; agentType?: string | null }) {
  if (!agentId) return <span>main agent</span>;
  return (
    <span>
      subagent <span className="mono">{agentId}</span>
      {agentType ? <> ({agentType})</> : null}
    </span>
  );
}
