import Link from "next/link";
import type { Simulation } from "@/lib/server/what-if";
import { prepareByClassTable } from "./charts/what-if-by-class";
import { formatBytes } from "./charts/what-if-series";
import { formatCount, humanize } from "./format";
import { distinctSessions } from "./policy-labels";

const HEADS = ["Bytes freed", "Spans lost", "Turned expiring", "Still expiring", "Bytes stored"] as const;

/**
 * Beneath the charts: each class's figures day by day under both policies (bytes freed, spans
 * turning LOST and EXPIRING, spans still EXPIRING, bytes stored), and the sessions those spans
 * belong to under the proposal.
 */
export function RetentionWhatIfByClass({
  simulation,
  sessionHref,
}: {
  simulation: Simulation;
  sessionHref: (id: string) => string;
}) {
  const rows = prepareByClassTable(simulation.current.days, simulation.proposed.days);
  const { sessions, sessionsTruncated } = simulation.proposed;
  return (
    <>
      <table aria-label="By class, day by day">
        <thead>
          <tr>
            <th rowSpan={2}>Day</th>
            <th rowSpan={2}>Class</th>
            <th colSpan={HEADS.length}>Current</th>
            <th colSpan={HEADS.length}>Proposed</th>
          </tr>
          <tr>{["current", "proposed"].flatMap((p) => HEADS.map((h) => <th key={`${p}-${h}`}>{h}</th>))}</tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.date}/${row.cls}`}>
              <td className="mono">{row.date}</td>
              <td>{humanize(row.cls)}</td>
              {(["current", "proposed"] as const).flatMap((p) => [
                <td key={`${p}-freed`}>{formatBytes(row[p].freed)}</td>,
                <td key={`${p}-lost`}>{formatCount(row[p].lost)}</td>,
                <td key={`${p}-turned`}>{formatCount(row[p].turnedExpiring)}</td>,
                <td key={`${p}-expiring`}>{formatCount(row[p].expiringHeld)}</td>,
                <td key={`${p}-stored`}>{formatBytes(row[p].stored)}</td>,
              ])}
            </tr>
          ))}
        </tbody>
      </table>
      <details style={{ marginTop: 8 }}>
        <summary>
          Sessions with spans the proposal turns expiring or lost ({formatCount(distinctSessions(sessions))}
          {sessionsTruncated ? ", the soonest only" : ""})
        </summary>
        <table aria-label="Sessions affected by day">
          <thead>
            <tr>
              <th>Day</th>
              <th>Session</th>
              <th>Class</th>
              <th>Turned expiring</th>
              <th>Lost</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={`${s.date}/${s.sessionId}/${s.class}`}>
                <td className="mono">{s.date}</td>
                <td>
                  <Link href={sessionHref(s.sessionId)} className="mono">
                    {s.sessionId.slice(0, 8)}
                  </Link>
                </td>
                <td>{humanize(s.class)}</td>
                <td>{formatCount(s.turnedExpiring)}</td>
                <td>{formatCount(s.lost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
