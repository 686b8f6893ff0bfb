import type { CompactionRow } from "@/lib/server/compactions";
import { db } from "@/lib/db/client";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";
import type { RawSearchParams } from "./list-query";
import {
  FEED_SHOWS,
  parseRefusalListQuery,
  REFUSAL_PAGE_SIZE,
  type RefusalListQuery,
  refusalListPage,
  refusalWhereSql,
  refusalWindow,
} from "./refusal-list";
import { type RefusalDayCount, type RefusalRow, refusalsByKeys } from "./refusals";

export { FEED_SHOWS };

const DAY_MS = 86_400_000;
/** Days the chart shows when the list is not bounded by dates; and at most. */
export const FEED_DAYS = 30;
const CHART_MAX_DAYS = 366;

export interface RefusalFeed {
  /** The page's refusals and compactions done without asking (events of their own), in the list's order. */
  events: RefusalRow[];
  compactions: CompactionRow[];
  /** Events matching the filters, over all pages; the page, kept within 1..pages. */
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  query: RefusalListQuery;
  /** Refusals per UTC day and cell over the chart's window (`days` days ending `asOf`). */
  counts: RefusalDayCount[];
  days: number;
  asOf: string;
}

/**
 * A project's Refusals page and its live feed: one page of the filtered list with its total, and
 * per-day counts for the chart over the same filters (the list's dates, else the last 30 days).
 */
export async function refusalFeed(
  projectId: string,
  raw: RawSearchParams | URLSearchParams,
  now = new Date(),
): Promise<RefusalFeed> {
  const query = parseRefusalListQuery(raw);
  const { keys, total, page, pages } = await refusalListPage(projectId, query, now);
  const chart = chartWindow(query, now);
  const [events, compactions, counts] = await Promise.all([
    refusalsByKeys(
      projectId,
      keys.filter((k) => k.kind === "refusal"),
    ),
    compactionsByIds(
      projectId,
      keys.filter((k) => k.kind === "compaction").map((k) => k.id),
    ),
    query.show === "compactions" ? [] : countsByDay(projectId, query, now, chart),
  ]);
  return {
    events,
    compactions,
    total,
    page,
    pages,
    pageSize: REFUSAL_PAGE_SIZE,
    query: { ...query, page },
    counts,
    days: chart.days,
    asOf: chart.end.toISOString(),
  };
}

/** The chart's days: the list's range (at most a year, ending at its end), else the last 30 days. */
function chartWindow(query: RefusalListQuery, now: Date): { start: Date; end: Date; days: number } {
  const { since, until } = refusalWindow(query, now);
  const end = until ? new Date(until.getTime() - 1) : now;
  const first = since ?? new Date(end.getTime() - (FEED_DAYS - 1) * DAY_MS);
  const startDay = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
  const endDay = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  const days = Math.min(CHART_MAX_DAYS, Math.max(1, Math.round((endDay - startDay) / DAY_MS) + 1));
  return { start: new Date(endDay - (days - 1) * DAY_MS), end, days };
}

async function countsByDay(
  projectId: string,
  query: RefusalListQuery,
  now: Date,
  chart: { start: Date; end: Date },
): Promise<RefusalDayCount[]> {
  const rows = await db().$queryRaw<
    Array<{ day: string; cell_class: EvidentialClass; cell_provenance: ProvenanceStatus; count: number }>
  >`
    select to_char(r.occurred_at, 'YYYY-MM-DD') as day, r.cell_class::text as cell_class,
           r.cell_provenance::text as cell_provenance, count(*)::int as count
      from refusal_event r
     where ${refusalWhereSql(projectId, query, now)} and r.occurred_at >= ${chart.start} and r.occurred_at <= ${chart.end}
     group by 1, 2, 3`;
  return rows.map((r) => ({ day: r.day, cellClass: r.cell_class, cellProvenance: r.cell_provenance, count: r.count }));
}

/** The page's compactions (the project's only), as the feed's rows. */
async function compactionsByIds(projectId: string, ids: string[]): Promise<CompactionRow[]> {
  if (ids.length === 0) return [];
  const rows = await db().compaction.findMany({
    where: { projectId, id: { in: ids } },
    include: { session: { select: { title: true, externalId: true } } },
  });
  const byId = new Map(rows.map((c) => [c.id, c]));
  return ids.flatMap((id) => {
    const c = byId.get(id);
    if (!c) return [];
    return [
      {
        id: c.id,
        sessionId: c.sessionId,
        sessionTitle: c.session.title ?? c.session.externalId,
        asked: c.asked,
        summarySpanId: c.summarySpanId,
        replacedCount: c.replacedCount,
        refusedCount: c.refusedCount,
        requester: c.requester,
        occurredAt: c.occurredAt.toISOString(),
      },
    ];
  });
}
