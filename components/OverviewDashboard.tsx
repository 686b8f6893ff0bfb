"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { type MouseEvent, useState } from "react";
import type { OverviewRange, ProjectOverview } from "@/lib/server/overview";
import { prepareAtRiskAhead } from "./charts/at-risk-ahead-series";
import { prepareOverview, RANGES, rangeFromUrl, rangeWords, viewWords } from "./charts/overview-series";
import { formatTime } from "./format";
import { OverviewPanel } from "./OverviewPanel";

const POLL_MS = 10_000;

/** The range as the URL gives it: a preset, and the days (?from=…&to=…) that win over it when present. */
interface UrlView {
  range: OverviewRange;
  from: string;
  to: string;
}

/** React Query keys of the overview: per project and range, so a range's data is never shown for another. */
export const overviewKeys = {
  all: ["overview"] as const,
  project: (slug: string, view: UrlView) => ["overview", slug, view.range, view.from, view.to] as const,
};

async function fetchOverview(slug: string, view: UrlView): Promise<ProjectOverview> {
  const query = new URLSearchParams({ range: view.range });
  if (view.from) query.set("from", view.from);
  if (view.to) query.set("to", view.to);
  const response = await fetch(`/api/dashboard/projects/${encodeURIComponent(slug)}/overview?${query}`, {
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`The overview answered ${response.status}`);
  return response.json() as Promise<ProjectOverview>;
}

const GRID = { display: "grid", gap: 16, gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 340px), 1fr))" } as const;

/**
 * A project's overview: rendered on the server with `initial`, then polled while the page is open.
 * The range lives in the URL (?range=7d, or the days ?from=…&to=… the other views carry here);
 * picking a preset changes the URL without a page load and shows a loading state until that
 * range's figures arrive (a plain link when scripts are off).
 */
export function OverviewDashboard({ slug, initial }: { slug: string; initial: ProjectOverview }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const range = rangeFromUrl(searchParams.get("range")) ?? initial.window.range;
  const view: UrlView = { range, from: searchParams.get("from") ?? "", to: searchParams.get("to") ?? "" };
  // The server counted `initial` for the URL the page was loaded with: only that view starts with it.
  const [loaded] = useState(() => JSON.stringify(view));
  const days = view.from || view.to;
  const { data, error, dataUpdatedAt } = useQuery({
    queryKey: overviewKeys.project(slug, view),
    queryFn: () => fetchOverview(slug, view),
    initialData: JSON.stringify(view) === loaded ? initial : undefined,
    refetchInterval: POLL_MS,
  });

  const pick = (r: OverviewRange) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const next = new URLSearchParams(searchParams);
    next.set("range", r);
    // A preset replaces the days: they would win over it.
    next.delete("from");
    next.delete("to");
    // Next.js keeps useSearchParams in step with pushState: no server round trip for a range.
    window.history.pushState(null, "", `${pathname}?${next}`);
  };

  return (
    <>
      <nav aria-label="Range" className="overview-ranges" style={{ display: "flex", gap: 8, flexWrap: "wrap", marginBottom: 12 }}>
        {RANGES.map((r) => (
          <a
            key={r}
            href={`?range=${r}`}
            onClick={pick(r)}
            aria-current={r === range && !days ? "page" : undefined}
            className={r === range && !days ? "button" : "button secondary"}
          >
            {rangeWords(r).replace("the last ", "Last ")}
          </a>
        ))}
      </nav>
      <p className="subtitle" aria-live="polite">
        {error ? (
          <span className="error-text">Live updates paused: {(error as Error).message}</span>
        ) : !data ? (
          <>Loading {days ? "the days asked for" : rangeWords(range)}…</>
        ) : (
          <>
            {data.window.days
              ? `Counting ${viewWords(data.window, new Date(data.window.asOf).getUTCFullYear())} (UTC days). `
              : ""}
            Live: refreshed {formatTime(new Date(dataUpdatedAt))}
          </>
        )}
      </p>
      {!data ? (
        <div style={GRID} aria-busy="true">
          {["refusals", "unasked", "lost", "at-risk-ahead", "expiring", "storage"].map((id) => (
            <div key={id} className="panel">
              <div className="skeleton" style={{ width: "40%", height: 20 }} />
              <div className="skeleton" style={{ height: 160 }} />
            </div>
          ))}
        </div>
      ) : (
        <div style={GRID}>
          {overviewCharts(data, slug).map((chart) => (
            <OverviewPanel key={chart.id} chart={chart} />
          ))}
        </div>
      )}
    </>
  );
}

/** The overview's charts in reading order: the projection of spans at risk follows the evidence already lost. */
function overviewCharts(data: ProjectOverview, slug: string) {
  const charts = prepareOverview(data, slug).charts;
  const ahead = prepareAtRiskAhead(data, slug);
  const lost = charts.findIndex((c) => c.id === "lost");
  if (lost < 0) return [...charts, ahead];
  return [...charts.slice(0, lost + 1), ahead, ...charts.slice(lost + 1)];
}
