import Link from "next/link";
import { formatCount, formatDayTime, formatTime, humanize, provenanceWords } from "./format";
import type { RefusalGroup } from "./refusal-groups";
import { BreakableText } from "./BreakableText";

/**
 * One gate request's refusals as a row of the refusal feed's table: when, the session, its refused
 * spans (a lone span's seq, or a count that opens to each span and its explanation), the cells, the
 * reason once, who asked and the atoms at risk. `basePath` is the project's; `year` is the page's,
 * so a time in it needs no year.
 */
export function RefusalGroupRow({ group, basePath, year }: { group: RefusalGroup; basePath: string; year: number }) {
  const { first, refusals } = group;
  const at = new Date(first.occurredAt);
  const spanLink = (r: RefusalGroup["first"]) => <Link href={`${basePath}/spans/${r.spanId}`}>{r.seq ?? "summary"}</Link>;
  return (
    <tr data-event="refusal" data-spans={refusals.length}>
      <td className="when short" data-label="When">
        <time dateTime={first.occurredAt} title={formatTime(at)}>
          {formatDayTime(at, year)}
        </time>
      </td>
      <td data-label="Session">
        <Link href={`${basePath}/sessions/${first.sessionId}`}>{first.sessionTitle}</Link>
      </td>
      <td className={refusals.length === 1 ? "num" : "short"} data-label="Spans">
        {refusals.length === 1 ? (
          spanLink(first)
        ) : (
          <details className="refused-spans">
            <summary>{formatCount(refusals.length)} spans</summary>
            <ul aria-label={`Spans refused in this request of ${first.sessionTitle}`}>
              {refusals.map((r) => (
                <li key={r.id}>
                  {spanLink(r)}{" "}
                  <Link href={`${basePath}/refusals/${r.id}`} aria-label={`Why span ${r.seq ?? "summary"} was refused`}>
                    why
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        )}
      </td>
      <td className="below" data-label="Cell">
        {group.cells.map((c) => (
          <div key={`${c.cellClass}:${c.cellProvenance}`}>
            {humanize(c.cellClass)} × {provenanceWords(c.cellProvenance)}
          </div>
        ))}
      </td>
      <td className="reason" data-label="Reason">
        {group.reasons.map((reason) => (
          <div key={reason}>{reason}</div>
        ))}
      </td>
      <td className="mono below" data-label="Requested by">
        <BreakableText text={first.requester} />
      </td>
      <td className="num" data-label="Atoms at risk">
        {formatCount(group.atomsAtRisk)}
      </td>
      <td className="below" data-label="Explained">
        {refusals.length === 1 ? <Link href={`${basePath}/refusals/${first.id}`}>Why</Link> : "per span"}
      </td>
    </tr>
  );
}
