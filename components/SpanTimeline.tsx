import Link from "next/link";
import type { EvidentialClass, ProvenanceStatus, SpanKind, TranscriptState } from "@/lib/evidence/types";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { cellSafety } from "@/lib/evidence/safety";
import { AgentName, CallOutcome } from "./CallOutcome";
import { provenanceWords } from "./format";
import { projectHref } from "./project-href";
import { SpanSays, type SpanSaysFacts } from "./SpanSays";

export interface TimelineSpan {
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  transcriptState: TranscriptState;
  provenance: ProvenanceStatus;
  occurredAt: Date;
  /** The call's outcome (calls and their results), its exit code, and the agent that produced the span. */
  outcome?: ToolOutcome | null;
  exitCode?: number | null;
  agentId?: string | null;
  agentType?: string | null;
  /** What the span says: prefixes of its original and of the summary that replaced it. */
  says?: SpanSaysFacts;
}

const STATE_TONE: Record<TranscriptState, string> = {
  VERBATIM: "",
  PRESERVED: "safe",
  RECLAIMED_HONEST: "risk",
  RECLAIMED: "risk",
};

/**
 * A page of the transcript, each span with what it says (expandable in place), its agent, call
 * outcome, class, provenance and transcript state, linked to its page in the project (`project`: its slug).
 */
export function SpanTimeline({
  spans,
  project,
  empty = "No spans match.",
}: {
  spans: TimelineSpan[];
  project?: string;
  /** What an empty page says: which filters found nothing, and where to go instead. */
  empty?: React.ReactNode;
}) {
  if (spans.length === 0) return <div className="panel empty-state">{empty}</div>;
  return (
    <table className="data" aria-label="Spans" data-testid="span-list">
      <thead>
        <tr>
          <th className="num">Seq</th>
          <th>Kind</th>
          <th className="span-says-col">What it says</th>
          <th>Agent</th>
          <th>Outcome</th>
          <th>Class</th>
          <th>Provenance</th>
          <th>Transcript</th>
          <th>Occurred</th>
        </tr>
      </thead>
      <tbody>
        {spans.map((span) => {
          const href = project ? projectHref(project, `/spans/${span.id}`) : `/spans/${span.id}`;
          return (
            <tr key={span.id} data-span-id={span.id}>
              <td className="num">{span.seq ?? "—"}</td>
              <td>
                <Link href={href}>{span.kind.toLowerCase().replace("_", " ")}</Link>
              </td>
              <td className="span-says-col" data-testid="span-says">
                <SpanSays facts={span.says} spanHref={href} />
              </td>
              <td>
                <AgentName agentId={span.agentId} agentType={span.agentType} />
              </td>
              <td>
                <CallOutcome outcome={span.outcome} exitCode={span.exitCode} />
              </td>
              <td>{span.class.toLowerCase().replace("_", "-")}</td>
              <td>
                <span className={`badge ${cellSafety(span.class, span.provenance)}`}>{provenanceWords(span.provenance)}</span>
              </td>
              <td>
                <span className={`badge ${STATE_TONE[span.transcriptState]}`}>
                  {span.transcriptState.toLowerCase().replace("_", " ")}
                </span>
              </td>
              <td className="when">{span.occurredAt.toISOString().slice(0, 16).replace("T", " ")}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
