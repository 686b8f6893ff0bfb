import { z } from "zod";
import { parseWith, text } from "@/lib/core/validation";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { gridTally } from "@/lib/evidence/safety";
import { heldPastTtl, STATUS_CODES, sessionGrid } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { dayParam, rangeParam, timeWindow } from "@/lib/core/time-range";

/** span_grid_count's codes for the statuses the grid shows red on evidence-bearing rows: LOST and NONE. */
const LOST_GRID_CODE = STATUS_CODES.indexOf("LOST");
const NONE_GRID_CODE = STATUS_CODES.indexOf("NONE");
/** And the status it shows amber on them: EXPIRING. */
const EXPIRING_GRID_CODE = STATUS_CODES.indexOf("EXPIRING");

export const SESSION_SORTS = ["activity", "refusals", "at-risk"] as const;
export const SESSION_STATES = ["any", "refused", "at-risk", "lost", "incomplete", "unasked"] as const;
export const PAGE_SIZE = 25;

export const SessionListQuerySchema = z.object({
  q: text().max(200).optional(),
  runtime: text().max(64).optional(),
  state: z.enum(SESSION_STATES).default("any"),
  sort: z.enum(SESSION_SORTS).default("activity"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  /** The project views' time range (time-range.ts), over each session's last activity. */
  range: rangeParam.optional(),
  from: dayParam.optional(),
  to: dayParam.optional(),
});

export type SessionListQuery = z.output<typeof SessionListQuerySchema>;

export interface SessionListRow {
  id: string;
  projectSlug: string;
  externalId: string;
  runtime: string;
  title: string | null;
  /** The transcript's own time of its latest span. */
  lastActivityAt: Date;
  /** When Custodian received the session. */
  receivedAt: Date;
  spanCount: number;
  refusalCount: number;
  /** The session grid's amber cells (evidence-bearing spans expiring before their horizon). */
  atRiskCount: number;
  /** The session grid's red cells (evidence-bearing spans lost, or with no pointer). */
  lostCount: number;
  /** Records its import skipped: while there are any, no evidence question answers NO over it. */
  skippedCount: number;
  /** Compactions the runtime did without asking the gate (session.unasked_compaction_count). */
  unaskedCompactionCount: number;
}

/**
 * A project's Sessions page: search, filter, sort and paginate in the database, with per-session
 * counts of spans, refusals, originals at risk (expiring before their horizon) and originals gone.
 */
export async function listSessionPage(
  projectId: string,
  raw: Record<string, string | undefined>,
): Promise<{ rows: SessionListRow[]; total: number; query: SessionListQuery; runtimes: string[] }> {
  const query = parseWith(
    SessionListQuerySchema,
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== "")),
    "The filter",
  );
  const rows = await db().$queryRaw<
    Array<{
      id: string;
      project_id: string;
      slug: string;
      external_id: string;
      runtime: string;
      title: string | null;
      last_activity_at: Date;
      created_at: Date;
      spans: number;
      refusals: number;
      at_risk: number;
      lost: number;
      skipped: number;
      unasked: number;
      has_summaries: boolean;
      total: bigint;
    }>
  >(sessionListSql(projectId, query, new Date(), (await loadPolicy(db(), projectId)).evidenceHorizonDays));
  const runtimes = await db().session.findMany({
    where: { projectId },
    distinct: ["runtime"],
    select: { runtime: true },
    orderBy: { runtime: "asc" },
  });
  const shown = await countsAsTheGridShowsThem(rows);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      projectSlug: r.slug,
      externalId: r.external_id,
      runtime: r.runtime,
      title: r.title,
      lastActivityAt: r.last_activity_at,
      receivedAt: r.created_at,
      spanCount: r.spans,
      refusalCount: r.refusals,
      atRiskCount: shown.get(r.id)?.atRisk ?? r.at_risk,
      lostCount: shown.get(r.id)?.lost ?? r.lost,
      skippedCount: r.skipped,
      unaskedCompactionCount: r.unasked,
    })),
    total: Number(rows[0]?.total ?? 0),
    query,
    runtimes: runtimes.map((r) => r.runtime),
  };
}

/**
 * The counts of a page's rows as each session's grid shows them, by the grid's own colouring
 * (cellSafety): at risk is its amber cells, lost its red ones (evidence-bearing spans LOST or with no
 * pointer). Each row reads its grid (kept counters, an index-only read), so the list and the session
 * page can never disagree. The filters and the at-risk sort use the SQL counts (sessionListSql), the
 * same cells less the summaries' own (a summary's status is resolved over its links, not kept).
 */
async function countsAsTheGridShowsThem(
  rows: Array<{ id: string; project_id: string }>,
): Promise<Map<string, { atRisk: number; lost: number }>> {
  const now = new Date();
  const projects = [...new Set(rows.map((r) => r.project_id))];
  const policies = new Map(await Promise.all(projects.map(async (id) => [id, await loadPolicy(db(), id)] as const)));
  const counted = await Promise.all(
    rows.map(async (row) => {
      const { grid } = await sessionGrid(db(), row.id, policies.get(row.project_id)!, now);
      return [row.id, gridTally(grid)] as const;
    }),
  );
  return new Map(counted);
}

/**
 * The page's query: one project's sessions, filtered, sorted and paged over the counts triggers keep
 * on each session (migration 20261202122000_scale_read_paths: spans, refusals, held unpinned
 * originals of evidence-bearing spans expiring before their horizon, compactions without asking),
 * then the page's 25 sessions get the counts that are not kept. Evidence lost is what the
 * session's grid shows as LOST, from the grid's own source: its kept counters (span_grid_count,
 * code 1) plus the spans whose TTL has passed since and whose bytes the sweeper has not deleted yet
 * (span_held_expiry_idx); at risk is what it shows EXPIRING (code 2) less those same spans, not the
 * kept at_risk_count, which counts an original past its TTL until it is swept; records the import
 * skipped are counted from skipped_record's key. Summaries are left out of both: the grid resolves
 * a summary's status over its links, which no kept count holds. A summary is amber or red only
 * when a span beneath it is, so the filters find the sessions the shown counts name (but where that
 * span is narrative); the at-risk sort orders by spans, summaries aside.
 * Computing those for every session before paging cost the last page of 1,000 sessions 170 ms;
 * only the lost, at-risk and incomplete filters and the at-risk sort need them for all. Each reads
 * by the session's keys (span_grid_count's, span_held_expiry_idx): nothing scans a session's spans.
 */
export function sessionListSql(
  projectId: string,
  query: Pick<SessionListQuery, "q" | "runtime" | "state" | "sort" | "page"> &
    Partial<Pick<SessionListQuery, "range" | "from" | "to">>,
  now: Date,
  /** The project's evidence horizon: what tells an original past its TTL that was EXPIRING. */
  horizonDays: number,
): Prisma.Sql {
  const { atRisk, lost } = shownCounts(now, horizonDays);
  const conditions = sessionConditions(projectId, query, now, { atRisk, lost });
  // The id last: sessions tied on a count keep one order, so pages never overlap.
  const order =
    query.sort === "refusals"
      ? Prisma.sql`se.refusal_count desc, se.last_activity_at desc, se.id desc`
      : query.sort === "at-risk"
        ? Prisma.sql`${atRisk} desc, se.last_activity_at desc, se.id desc`
        : Prisma.sql`se.last_activity_at desc, se.id desc`;
  return Prisma.sql`
    with page as (
      select se.id, count(*) over () as total
        from session se
       where ${Prisma.join(conditions, " and ")}
       order by ${order}
       limit ${PAGE_SIZE} offset ${(query.page - 1) * PAGE_SIZE}
    )
    select se.id::text as id, se.project_id::text as project_id, pr.slug, se.external_id, se.runtime, se.title, se.last_activity_at, se.created_at,
           se.span_count as spans, se.refusal_count as refusals, (${atRisk})::int as at_risk, (${lost})::int as lost,
           (select count(*) from skipped_record r where r.session_id = se.id)::int as skipped,
           se.unasked_compaction_count as unasked, se.span_count > se.non_summary_count as has_summaries, page.total
      from page join session se on se.id = page.id join project pr on pr.id = se.project_id
     order by ${order}`;
}

/**
 * What the list's own counts are, per session `se` (see sessionListSql): the grid's red cells
 * (evidence-bearing spans LOST or with no pointer, and those whose TTL has passed since their
 * counter was kept) and its amber ones (EXPIRING by their counters, less those past their TTL since).
 */
function shownCounts(now: Date, horizonDays: number): { atRisk: Prisma.Sql; lost: Prisma.Sql } {
  const lost = Prisma.sql`
    (select coalesce(sum(g.n), 0) from span_grid_count g
      where g.session_id = se.id and g.class <> 'NARRATIVE' and g.code in (${LOST_GRID_CODE}, ${NONE_GRID_CODE}))
    + (select count(*) from span s
        where s.session_id = se.id and s.kind <> 'SUMMARY' and s.class <> 'NARRATIVE' and ${heldPastTtl("s", now)})`;
  const atRisk = Prisma.sql`
    (select coalesce(sum(g.n), 0) from span_grid_count g
      where g.session_id = se.id and g.class <> 'NARRATIVE' and g.code = ${EXPIRING_GRID_CODE})
    - (select count(*) from span s
        where s.session_id = se.id and s.kind <> 'SUMMARY' and s.class <> 'NARRATIVE' and ${heldPastTtl("s", now)}
          and custodian_grid_code(s.has_pointer, s.original_state, s.original_expires_at, s.occurred_at, ${horizonDays}::int)
              = ${EXPIRING_GRID_CODE})`;
  return { atRisk, lost };
}

/** The list's filters as conditions on session `se`: search, runtime, the view's range (last activity) and state. */
function sessionConditions(
  projectId: string,
  query: Pick<SessionListQuery, "q" | "runtime" | "state"> & Partial<Pick<SessionListQuery, "range" | "from" | "to">>,
  now: Date,
  { atRisk, lost }: { atRisk: Prisma.Sql; lost: Prisma.Sql },
): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [Prisma.sql`se.project_id = ${projectId}::uuid`];
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(Prisma.sql`(se.external_id ilike ${like} or se.title ilike ${like})`);
  }
  if (query.runtime) conditions.push(Prisma.sql`se.runtime = ${query.runtime}`);
  // Within the range: on (project_id, last_activity_at), the index the default order reads.
  const { since, until } = timeWindow(query, now);
  if (since) conditions.push(Prisma.sql`se.last_activity_at >= ${since}`);
  if (until) conditions.push(Prisma.sql`se.last_activity_at < ${until}`);
  if (query.state === "refused") conditions.push(Prisma.sql`se.refusal_count > 0`);
  if (query.state === "at-risk") conditions.push(Prisma.sql`${atRisk} > 0`);
  if (query.state === "lost") conditions.push(Prisma.sql`${lost} > 0`);
  if (query.state === "incomplete")
    conditions.push(Prisma.sql`exists (select 1 from skipped_record r where r.session_id = se.id)`);
  if (query.state === "unasked") conditions.push(Prisma.sql`se.unasked_compaction_count > 0`);
  return conditions;
}

/**
 * How many sessions the list shows at risk and with evidence lost within the view's range, and
 * their spans in each state as the list's SQL counts them: the list's own conditions
 * (sessionListSql, state "at-risk" and "lost"), so a figure that links to the list counts what the
 * list shows. One pass over the range's sessions computes both.
 */
export function sessionStateCountsSql(
  projectId: string,
  query: Partial<Pick<SessionListQuery, "range" | "from" | "to">>,
  now: Date,
  horizonDays: number,
): Prisma.Sql {
  const counts = shownCounts(now, horizonDays);
  const conditions = sessionConditions(projectId, { ...query, state: "any" }, now, counts);
  return Prisma.sql`
    select count(*) filter (where at_risk > 0)::int as at_risk_sessions, coalesce(sum(at_risk) filter (where at_risk > 0), 0)::int as at_risk_spans,
           count(*) filter (where lost > 0)::int as lost_sessions, coalesce(sum(lost) filter (where lost > 0), 0)::int as lost_spans
      from (select ${counts.atRisk} as at_risk, ${counts.lost} as lost
              from session se
             where ${Prisma.join(conditions, " and ")}) c`;
}

type StateCount = { sessions: number; spans: number };

/** sessionStateCountsSql, run. */
export async function countSessionsAtRiskAndLost(
  projectId: string,
  query: Parameters<typeof sessionStateCountsSql>[1],
  now: Date,
): Promise<{ atRisk: StateCount; lost: StateCount }> {
  const horizonDays = (await loadPolicy(db(), projectId)).evidenceHorizonDays;
  const [row] = await db().$queryRaw<
    Array<{ at_risk_sessions: number; at_risk_spans: number; lost_sessions: number; lost_spans: number }>
  >(sessionStateCountsSql(projectId, query, now, horizonDays));
  return {
    atRisk: { sessions: row?.at_risk_sessions ?? 0, spans: row?.at_risk_spans ?? 0 },
    lost: { sessions: row?.lost_sessions ?? 0, spans: row?.lost_spans ?? 0 },
  };
}
