import type { CompactionRow } from "@/lib/server/compactions";
import { db } from "@/lib/db/client";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";
import type { RawSearchParams } from "./list-query";
import {
  encodeRefusalCursor,
  FEED_SHOWS,
  parseRefusalListQuery,
  REFUSAL_PAGE_SIZE,
  type RefusalListQuery,
  refusalWhereSql,
  refusalWindow,
} from "./refusal-list";
import { type RefusalPage, type RefusalPageRow, refusalListPage } from "./refusal-page";
import type { RefusalDayCount } from "./refusals";

export { FEED_SHOWS };

const DAY_MS = 86_400_000;
/** Days the chart shows when the list is not bounded by dates; and at most. */
export const FEED_DAYS = 30;
const CHART_MAX_DAYS = 366;

/**
 * One gate request's refusals, as the list shows them: its time, session and requester, how many
 * spans it refused (matching the filters), their atoms at risk, the distinct cells and reasons, and
 * its first refused spans (by seq; `refused` says how many there are in all).
 */
export interface RefusalGroup {
  /** The gate request's id (a refusal of no known request: the refusal's own). */
  key: string;
  occurredAt: string;
  sessionId: string;
  sessionTitle: string;
  requester: string;
  refused: number;
  atomsAtRisk: number;
  reasons: string[];
  cells: Array<{ cellClass: EvidentialClass; cellProvenance: ProvenanceStatus }>;
  spans: Array<{ refusalId: string; spanId: string; seq: number | null }>;
}

export type RefusalFeedRow = { kind: "refusal"; group: RefusalGroup } | { kind: "compaction"; compaction: CompactionRow };

export interface RefusalFeed {
  /** The page's rows in the list's order: a gate request's refusals, or a compaction done without asking. */
  rows: RefusalFeedRow[];
  /** Over the whole filtered list, read with the page: requests with refusals, their refusals, compactions without asking. */
  totals: RefusalPage["totals"];
  /** The page's rows are rows start+1..end of the list's rows (requests + compactions). */
  window: { start: number; end: number; rows: number };
  /** Cursors of the pages before and after this one (null: none), and the page size. */
  before: string | null;
  after: string | null;
  pageSize: number;
  query: RefusalListQuery;
  /** Refusals per UTC day and cell over the chart's window (`days` days ending `asOf`). */
  counts: RefusalDayCount[];
  days: number;
  asOf: string;
}

const keyOf = (row: RefusalPageRow) => encodeRefusalCursor({ at: row.at, sessionId: row.sessionId, id: row.id });

/**
 * A project's Refusals page and its live feed: one page of the filtered list with its totals, and
 * per-day counts for the chart over the same filters (the list's dates, else the last 30 days).
 * A page before a cursor that reaches the start of the list is the first page.
 */
export async function refusalFeed(
  projectId: string,
  raw: RawSearchParams | URLSearchParams,
  now = new Date(),
): Promise<RefusalFeed> {
  let query = parseRefusalListQuery(raw);
  let page = await refusalListPage(projectId, query, now);
  if (query.before && !page.hasBefore) {
    query = { ...query, before: undefined };
    page = await refusalListPage(projectId, query, now);
  }
  const chart = chartWindow(query, now);
  const [compactions, counts] = await Promise.all([
    compactionsByIds(
      projectId,
      page.rows.filter((r) => r.kind === "compaction").map((r) => r.id),
    ),
    query.show === "compactions" ? [] : countsByDay(projectId, query, now, chart),
  ]);
  const compactionById = new Map(compactions.map((c) => [c.id, c]));
  const rows = page.rows.flatMap((r): RefusalFeedRow[] => {
    if (r.kind === "refusal") return [{ kind: "refusal", group: groupOf(r) }];
    const compaction = compactionById.get(r.id);
    return compaction ? [{ kind: "compaction", compaction }] : [];
  });
  const first = page.rows[0];
  const last = page.rows.at(-1);
  return {
    rows,
    totals: page.totals,
    window: { start: page.ahead, end: page.ahead + page.rows.length, rows: page.totals.requests + page.totals.compactions },
    before: page.hasBefore && first ? keyOf(first) : null,
    after: page.hasAfter && last ? keyOf(last) : null,
    pageSize: REFUSAL_PAGE_SIZE,
    query,
    counts,
    days: chart.days,
    asOf: chart.end.toISOString(),
  };
}

function groupOf(r: RefusalPageRow): RefusalGroup {
  return {
    key: r.id,
    occurredAt: r.at,
    sessionId: r.sessionId,
    sessionTitle: r.sessionTitle,
    requester: r.requester ?? "",
    refused: r.refused,
    atomsAtRisk: r.atoms,
    reasons: r.reasons,
    cells: r.cells.map((c) => {
      const [cellClass, cellProvenance] = c.split(":") as [EvidentialClass, ProvenanceStatus];
      return { cellClass, cellProvenance };
    }),
    spans: r.spans,
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
  const where = refusalWhereSql(projectId, query, now);
  if (!where) return [];
  const rows = await db().$queryRaw<
    Array<{ day: string; cell_class: EvidentialClass; cell_provenance: ProvenanceStatus; count: number }>
  >`
    select to_char(r.occurred_at, 'YYYY-MM-DD') as day, r.cell_class::text as cell_class,
           r.cell_provenance::text as cell_provenance, count(*)::int as count
      from refusal_event r
     where ${where} and r.occurred_at >= ${chart.start} and r.occurred_at <= ${chart.end}
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
