"use client";

import { useQuery } from "@tanstack/react-query";
import { prepareRefusalSeries } from "./charts/refusal-series";
import { RefusalsChart } from "./charts/RefusalsChart";
import { CompactionRow } from "./CompactionRow";
import { formatTime } from "./format";
import { groupRefusals } from "./refusal-groups";
import { RefusalGroupRow } from "./RefusalGroupRow";
import { ListSummary } from "./ListSummary";
import { Pager } from "./Pager";
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

/** The list's query as a link's search params: defaults and empty values left out, the page past the first. */
function feedHref(project: string, query: Feed["query"], page: number): string {
  const params = new URLSearchParams();
  const defaults: Record<string, unknown> = { page: 1, sort: "newest", show: "both" };
  for (const [key, value] of Object.entries({ ...query, page })) {
    if (value === undefined || value === "" || value === defaults[key]) continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return projectHref(project, `/refusals${text ? `?${text}` : ""}`);
}

/**
 * A page of a project's refusals and compactions done without asking, with the total and a pager:
 * server-rendered first, then polled while the page is open (the same page of the same filters).
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
  // Refusals and compactions done without asking, one stream in the list's order (time, then id).
  const sign = data.query.sort === "oldest" ? 1 : -1;
  const rows = [
    ...groupRefusals(data.events).map((g) => ({ kind: "refusal" as const, at: g.first.occurredAt, id: g.first.id, row: g })),
    ...(data.compactions ?? []).map((c) => ({ kind: "compaction" as const, at: c.occurredAt, id: c.id, row: c })),
  ].sort((a, b) => sign * (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const year = new Date(data.asOf).getUTCFullYear();
  const window = {
    page: data.page,
    pages: data.pages,
    start: (data.page - 1) * data.pageSize,
    end: (data.page - 1) * data.pageSize + data.events.length + (data.compactions ?? []).length,
    total: data.total,
  };
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
      <ListSummary
        window={window}
        hrefFor={(n) => feedHref(project, data.query, n)}
        noun={["event", "events"]}
        testId="list-total"
      />
      {rows.length === 0 ? (
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
            {rows.map((item) => {
              if (item.kind === "compaction")
                return <CompactionRow key={`c-${item.row.id}`} row={item.row} basePath={projectHref(project)} year={year} />;
              return <RefusalGroupRow key={item.row.key} group={item.row} basePath={projectHref(project)} year={year} />;
            })}
          </tbody>
        </table>
      )}
      <Pager label="Refusal pages" noun="Events" window={window} hrefFor={(n) => feedHref(project, data.query, n)} />
    </>
  );
}
