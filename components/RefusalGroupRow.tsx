import Link from "next/link";
import type { RefusalGroup } from "@/lib/server/dashboard";
import { BreakableText } from "./BreakableText";
import { formatCount, formatDayTime, formatTime, humanize, provenanceWords } from "./format";

/**
 * One gate request's refusals as a row of the refusal feed's table: when, the session, its refused
 * spans (a lone span's seq, or a count that opens to each span and its explanation), the cells, the
 * reason once, who asked and the atoms at risk. The group comes whole from the server, with the
 * count of its refusals and its first spans. `basePath` is the project's; `year` is the page's, so a
 * time in it needs no year.
 */
export function RefusalGroupRow({ group, basePath, year }: { group: RefusalGroup; basePath: string; year: number }) {
  const { spans } = group;
  const at = new Date(group.occurredAt);
  const lone = group.refused === 1 ? spans[0] : undefined;
  const spanLink = (s: RefusalGroup["spans"][number]) => <Link href={`${basePath}/spans/${s.spanId}`}>{s.seq ?? "summary"}</Link>;
  const more = group.refused - spans.length;
  return (
    <tr data-event="refusal" data-request={group.key} data-spans={group.refused}>
      <td className="when short" data-label="When">
        <time dateTime={group.occurredAt} title={formatTime(at)}>
          {formatDayTime(at, year)}
        </time>
      </td>
      <td className="session" data-label="Session">
        <Link href={`${basePath}/sessions/${group.sessionId}`}>{group.sessionTitle}</Link>
      </td>
      <td className={lone ? "num" : "short"} data-label="Spans">
        {lone ? (
          // "span 3", not a bare "3" that reads as a count beside the atoms at risk.
          lone.seq === null ? (
            spanLink(lone)
          ) : (
            <>span {spanLink(lone)}</>
          )
        ) : (
          <details className="refused-spans">
            <summary>{formatCount(group.refused)} spans</summary>
            <ul aria-label={`Spans refused in this request of ${group.sessionTitle}`}>
              {spans.map((s) => (
                <li key={s.refusalId}>
                  {spanLink(s)}{" "}
                  <Link href={`${basePath}/refusals/${s.refusalId}`} aria-label={`Why span ${s.seq ?? "summary"} was refused`}>
                    why
                  </Link>
                </li>
              ))}
              {more > 0 ? <li className="muted-note">and {formatCount(more)} more</li> : null}
            </ul>
          </details>
        )}
      </td>
      <td className="below cells" data-label="Cell">
        {group.cells.map((c) => (
          // Two lines at most, never a class broken at its hyphen ("side-" / "effecting").
          <div key={`${c.cellClass}:${c.cellProvenance}`}>
            <span className="one-line">{humanize(c.cellClass)} ×</span>{" "}
            <span className="one-line">{provenanceWords(c.cellProvenance)}</span>
          </div>
        ))}
      </td>
      <td className="reason" data-label="Reason">
        {group.reasons.map((reason) => (
          <div key={reason}>{reason}</div>
        ))}
      </td>
      <td className="mono below" data-label="Requested by">
        <BreakableText text={group.requester} />
      </td>
      <td className="num" data-label="Atoms at risk">
        {formatCount(group.atomsAtRisk)}
      </td>
      {/* A request's spans are explained one by one in its list: on a phone, nothing to say here. */}
      <td className={lone ? "below" : "below absent"} data-label="Explained">
        {lone ? <Link href={`${basePath}/refusals/${lone.refusalId}`}>Why</Link> : "per span"}
      </td>
    </tr>
  );
}
