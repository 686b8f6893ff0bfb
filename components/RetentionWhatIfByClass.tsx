import Link from "next/link";
import type { Simulation } from "@/lib/server/what-if";
import { prepareByClassTable } from "./charts/what-if-by-class";
import { formatBytes } from "./charts/what-if-series";
import { ScrollBox } from "./ScrollBox";
import { formatCount, formatDay } from "./format";
import { classLabel, distinctSessions } from "./policy-labels";

const HEADS = ["Bytes freed", "Spans lost", "Turned expiring", "Still expiring", "Bytes stored"] as const;

/**
 * Beneath the charts: each class's figures day by day under both policies (bytes freed, spans
 * turning LOST and EXPIRING, spans still EXPIRING, bytes stored), and the sessions those spans
 * belong to under the proposal.
 */
export function RetentionWhatIfByClass({
  simulation,
  sessionName,
  sessionHref,
}: {
  simulation: Simulation;
  /** A session as people know it (its title). */
  sessionName: (id: string) => string;
  sessionHref: (id: string) => string;
}) {
  const rows = prepareByClassTable(simulation.current.days, simulation.proposed.days);
  const { sessions, sessionsTruncated } = simulation.proposed;
  const first = simulation.current.days[0];
  const year = first ? Number(first.date.slice(0, 4)) : undefined;
  return (
    <>
      <ScrollBox label="By class, scrollable">
        <table className="figures" aria-label="By class, day by day">
          <thead>
            <tr>
              <th rowSpan={2}>Day</th>
              <th rowSpan={2}>Class</th>
              <th colSpan={HEADS.length}>Current</th>
              <th colSpan={HEADS.length}>Proposed</th>
            </tr>
            <tr>
              {["current", "proposed"].flatMap((p) =>
                HEADS.map((h) => (
                  <th key={`${p}-${h}`} className="num">
                    {h}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.date}/${row.cls}`}>
                <td className="when">
                  <time dateTime={row.date}>{row.label}</time>
                </td>
                <td className="one-line">{row.clsLabel}</td>
                {(["current", "proposed"] as const).flatMap((p) => [
                  <td key={`${p}-freed`} className="num">
                    {formatBytes(row[p].freed)}
                  </td>,
                  <td key={`${p}-lost`} className="num">
                    {formatCount(row[p].lost)}
                  </td>,
                  <td key={`${p}-turned`} className="num">
                    {formatCount(row[p].turnedExpiring)}
                  </td>,
                  <td key={`${p}-expiring`} className="num">
                    {formatCount(row[p].expiringHeld)}
                  </td>,
                  <td key={`${p}-stored`} className="num">
                    {formatBytes(row[p].stored)}
                  </td>,
                ])}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <details style={{ marginTop: 8 }}>
        <summary>
          Sessions with spans the proposal turns expiring or lost ({formatCount(distinctSessions(sessions))}
          {sessionsTruncated ? ", the soonest only" : ""})
        </summary>
        <ScrollBox label="Sessions affected, scrollable">
          <table className="figures" aria-label="Sessions affected by day">
            <thead>
              <tr>
                <th>Day</th>
                <th>Session</th>
                <th>Class</th>
                <th className="num">Turned expiring</th>
                <th className="num">Lost</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={`${s.date}/${s.sessionId}/${s.class}`}>
                  <td className="when">
                    <time dateTime={s.date}>{formatDay(s.date, year)}</time>
                  </td>
                  <td>
                    <Link href={sessionHref(s.sessionId)}>{sessionName(s.sessionId)}</Link>
                  </td>
                  <td>{classLabel(s.class)}</td>
                  <td className="num">{formatCount(s.turnedExpiring)}</td>
                  <td className="num">{formatCount(s.lost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </details>
    </>
  );
}
