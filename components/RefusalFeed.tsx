"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment } from "react";
import { prepareRefusalSeries } from "./charts/refusal-series";
import { RefusalsChart } from "./charts/RefusalsChart";
import { CompactionRow } from "./CompactionRow";
import { formatCount, formatTime } from "./format";
import { RefusalGroupRow } from "./RefusalGroupRow";
import { projectHref } from "./project-href";
import { refusalKeys } from "./query-keys";
import type { RefusalFeed as Feed } from "@/lib/server/dashboard";

const POLL_MS = 5_000;

async function fetchFeed(project: string, filter: Record<string, string | undefined>): Promise<Feed> {
  const query = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined));
  const response = await fetch(`/api/dashboard/projects/${encodeURIComponent(project)}/refusals?${query}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`The refusal feed answered ${response.status}`);
  return response.json() as Promise<Feed>;
}

/** The list's query as a link: defaults and empty values left out, the cursor replaced by `cursor` (none: the first page). */
function feedHref(project: string, query: Feed["query"], cursor: { after?: string; before?: string } = {}): string {
  const params = new URLSearchParams();
  const defaults: Record<string, unknown> = { sort: "newest", show: "both" };
  for (const [key, value] of Object.entries({ ...query, after: cursor.after, before: cursor.before })) {
    if (value === undefined || value === "" || value === defaults[key]) continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return projectHref(project, `/refusals${text ? `?${text}` : ""}`);
}

const counted = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * What the list holds, from the statement that read the page: refusals in their compactions, and
 * compactions without asking; each when there are some or it is what the list shows (an empty list
 * still says "0 refusals in 0 compactions"). Each figure stays on one line.
 */
function totalsParts(data: Feed): string[] {
  const { totals, query } = data;
  const parts: string[] = [];
  if (query.show === "refusals" || totals.refusals > 0 || (query.show === "both" && totals.compactions === 0))
    parts.push(`${counted(totals.refusals, "refusal", "refusals")} in ${counted(totals.requests, "compaction", "compactions")}`);
  if (query.show === "compactions" || totals.compactions > 0)
    parts.push(`${counted(totals.compactions, "compaction", "compactions")} without asking`);
  return parts;
}

/**
 * A page of a project's refusals (one row per compaction that asked the gate, its refusals beneath
 * it) and compactions done without asking, with the list's totals and cursor links to the pages
 * before and after: server-rendered first, then polled while the page is open (the same page of the
 * same filters).
 */
export function RefusalFeed({
  project,
  filter,
  initial,
}: {
  project: string;
  filter: Record<string, string | undefined>;
  initial: Feed;
}) {
  const { data, error, dataUpdatedAt } = useQuery({
    queryKey: refusalKeys.feed({ ...filter, project }),
    queryFn: () => fetchFeed(project, filter),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  const series = prepareRefusalSeries(data.counts, new Date(data.asOf), data.days);
  const year = new Date(data.asOf).getUTCFullYear();
  const newestFirst = data.query.sort !== "oldest";
  const [earlier, later, start] = newestFirst ? ["Newer", "Older", "Newest"] : ["Older", "Newer", "Oldest"];
  const { window } = data;
  return (
    <>
      <div className="panel" style={{ marginBottom: 16 }}>
        <h2 style={{ marginTop: 0 }}>
          Refusals per day by cell
          {series.points.length > 0 ? `, ${series.points[0]!.label} to ${series.points.at(-1)!.label}` : null}
        </h2>
        <RefusalsChart series={series} />
      </div>
      <p className="subtitle" aria-live="polite">
        {error ? (
          <span className="error-text">Live updates paused: {(error as Error).message}</span>
        ) : (
          <>Live: refreshed {formatTime(new Date(dataUpdatedAt))}</>
        )}
      </p>
      <div className="list-summary">
        <p aria-live="polite" data-testid="list-total">
          {totalsParts(data).map((part, i) => (
            <Fragment key={part}>
              {i > 0 ? " · " : ""}
              <span className="one-line">{part}</span>
            </Fragment>
          ))}
        </p>
        <p className="muted-note" data-testid="list-window">
          {window.rows === 0
            ? "No rows"
            : `Rows ${formatCount(window.start + 1)}–${formatCount(window.end)} of ${formatCount(window.rows)}, ${newestFirst ? "newest" : "oldest"} first`}
        </p>
      </div>
      {data.rows.length === 0 ? (
        <div className="panel empty-state">No refusals or compactions without asking match.</div>
      ) : (
        <table className="data stacked" aria-label="Refusal events">
          <thead>
            <tr>
              <th>When</th>
              <th>Session</th>
              <th className="num">Spans</th>
              <th>Cell</th>
              <th>Reason</th>
              <th>Requested by</th>
              <th className="num">Atoms at risk</th>
              <th>Explained</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((item) =>
              item.kind === "compaction" ? (
                <CompactionRow
                  key={`c-${item.compaction.id}`}
                  row={item.compaction}
                  basePath={projectHref(project)}
                  year={year}
                />
              ) : (
                <RefusalGroupRow key={`r-${item.group.key}`} group={item.group} basePath={projectHref(project)} year={year} />
              ),
            )}
          </tbody>
        </table>
      )}
      {data.before || data.after ? (
        <nav aria-label="Refusal pages" className="cursor-pager">
          {data.before ? (
            <>
              <Link href={feedHref(project, data.query)}>{start}</Link>
              <Link href={feedHref(project, data.query, { before: data.before })} rel="prev">
                ← {earlier}
              </Link>
            </>
          ) : null}
          {data.after ? (
            <Link href={feedHref(project, data.query, { after: data.after })} rel="next">
              {later} →
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
