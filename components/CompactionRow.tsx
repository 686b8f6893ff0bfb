import Link from "next/link";
import { BreakableText } from "./BreakableText";
import { formatCount, formatDayTime, formatTime } from "./format";
import type { CompactionRow as Row } from "@/lib/server/compactions";

/**
 * A compaction done without asking the gate, as a row of the refusal feed's table (same columns:
 * when, session, span, cell, reason, requested by, atoms at risk). `basePath` is the project's,
 * `year` the page's (a time in it needs no year).
 */
export function CompactionRow({ row, basePath, year }: { row: Row; basePath: string; year: number }) {
  const refused =
    row.refusedCount === 0
      ? "the gate would have allowed all of it"
      : `the gate would have refused ${formatCount(row.refusedCount)} of them`;
  return (
    <tr data-testid="unasked-compaction" data-event="compaction">
      <td className="when short" data-label="When">
        <time dateTime={row.occurredAt} title={formatTime(new Date(row.occurredAt))}>
          {formatDayTime(new Date(row.occurredAt), year)}
        </time>
      </td>
      <td className="session" data-label="Session">
        <Link href={`${basePath}/sessions/${row.sessionId}`}>{row.sessionTitle}</Link>
      </td>
      <td className="num" data-label="Spans">
        {row.summarySpanId ? <Link href={`${basePath}/spans/${row.summarySpanId}`}>summary</Link> : "none"}
      </td>
      <td className="below" data-label="Cell">
        <span className="badge risk">compacted without asking</span>
      </td>
      <td className="reason" data-label="Reason">
        The runtime replaced {formatCount(row.replacedCount)} span{row.replacedCount === 1 ? "" : "s"} without asking the gate;{" "}
        {refused}.
      </td>
      <td className="mono below" data-label="Requested by">
        <BreakableText text={row.requester} />
      </td>
      {/* Its atoms are counted on the spans it replaced, not on the event. */}
      <td className="num absent">—</td>
    </tr>
  );
}
