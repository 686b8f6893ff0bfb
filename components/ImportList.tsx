import type { ImportListJson } from "@/lib/server/dashboard";
import { BreakableText } from "./BreakableText";
import { formatCount, formatDayTime, formatTime, humanize } from "./format";
import { ImportSessionLinks } from "./ImportSessionLinks";
import { ListSummary } from "./ListSummary";
import { type PageWindow, Pager } from "./Pager";

const STATUS_TONE = { RUNNING: "risk", DONE: "safe", FAILED: "lost" } as const;

function bytes(n: number): string {
  if (n < 1024) return `${formatCount(n)} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * A page of a project's imports: format, status, size, spans, the file's records (read, used,
 * ignored, skipped) as the outcome counts them, the sessions it made, who asked and when, with the
 * total and a pager.
 */
export function ImportList({
  slug,
  rows,
  window,
  hrefFor,
  filtered,
}: {
  slug: string;
  rows: ImportListJson["rows"];
  window: PageWindow;
  hrefFor: (page: number) => string;
  filtered: boolean;
}) {
  // A day and minute, as the other lists show times (the full time on hover): the year only where
  // it is not the newest import's, which the server and the browser agree on.
  const year = Math.max(0, ...rows.map((job) => new Date(job.createdAt).getUTCFullYear()));
  return (
    <>
      <ListSummary window={window} hrefFor={hrefFor} noun={["import", "imports"]} testId="list-total" />
      {rows.length === 0 ? (
        <div className="panel empty-state">
          {filtered
            ? "No import matches this filter."
            : "No imports yet: transcript files uploaded here or through the API appear here."}
        </div>
      ) : (
        <table className="data stacked" aria-label="Imports">
          <thead>
            <tr>
              <th>Started</th>
              <th>Format</th>
              <th>Status</th>
              <th className="num">Size</th>
              <th className="num">Spans</th>
              <th className="num">Records read</th>
              <th className="num">Used</th>
              <th className="num">Ignored</th>
              <th className="num">Skipped</th>
              <th>Sessions</th>
              <th>Requested by</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((job) => (
              <tr key={job.id} data-import-id={job.id}>
                <td className="when short" data-label="Started">
                  <time dateTime={job.createdAt} title={formatTime(new Date(job.createdAt))}>
                    {formatDayTime(new Date(job.createdAt), year)}
                  </time>
                </td>
                <td className="short" data-label="Format">
                  {job.format ?? "detected"}
                </td>
                <td className="short" data-label="Status">
                  <span className={`badge ${STATUS_TONE[job.status]}`} title={job.status}>
                    {humanize(job.status)}
                  </span>
                  {job.error ? <div className="error-text">{job.error}</div> : null}
                </td>
                <td className="num one-line" data-label="Size">
                  {bytes(job.byteLength)}
                </td>
                <td className="num" data-label="Spans">
                  {job.status === "RUNNING" && job.spansTotal > 0
                    ? `${formatCount(job.spansDone)} of ${formatCount(job.spansTotal)}`
                    : formatCount(job.spansDone)}
                </td>
                <td className="num" data-label="Records read">
                  {job.records ? formatCount(job.records.read) : "—"}
                </td>
                <td className="num" data-label="Used">
                  {job.records ? formatCount(job.records.used) : "—"}
                </td>
                <td className="num" data-label="Ignored">
                  {job.records ? formatCount(job.records.ignored) : "—"}
                </td>
                <td className="num" data-label="Skipped">
                  {job.records ? (
                    job.records.skipped > 0 ? (
                      <span className="badge risk">{formatCount(job.records.skipped)}</span>
                    ) : (
                      0
                    )
                  ) : (
                    "—"
                  )}
                </td>
                <td data-label="Sessions">
                  <ImportSessionLinks slug={slug} links={job.sessionLinks} total={job.sessions ?? 0} />
                </td>
                <td className="mono" data-label="Requested by">
                  <BreakableText text={job.requester} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label="Import pages" noun="Imports" window={window} hrefFor={hrefFor} />
    </>
  );
}
