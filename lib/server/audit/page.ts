import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  AUDIT_PAGE_SIZE,
  type AuditQuery,
  auditOrderSql,
  auditWhereSql,
  parseAuditQuery,
  type RawSearchParams,
} from "./page-query";

/** One audit event as the log reads it back: the row without its chain columns. */
export interface AuditRow {
  id: string;
  at: Date;
  actorType: "USER" | "API_KEY" | "SYSTEM";
  actorLabel: string;
  act: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  reason: string | null;
}

export interface AuditPage {
  rows: AuditRow[];
  /** Events matching the filters, over all pages. */
  total: number;
  /** 1-based, kept within 1..pages (a page past the end shows the last). */
  page: number;
  pages: number;
  pageSize: number;
  query: AuditQuery;
  /** What the filters offer: every actor label and act code the project's log holds. */
  people: string[];
  acts: string[];
}

/** Most distinct values a filter list offers; a project with more people than this is filtered by URL. */
const FILTER_CHOICES = 500;

/**
 * One page of a project's audit log, filtered and sorted in the database, with the total. Each
 * filter is an equality on an indexed column after the project ((project_id, at, id),
 * (project_id, act, at, id), (project_id, actor_label, at, id), (target_type, target_id)), so a
 * page finds its fifty rows in an index, never by reading the whole table.
 */
export async function listAuditPage(projectId: string, raw: AuditQuery | RawSearchParams | URLSearchParams): Promise<AuditPage> {
  const query = isParsed(raw) ? raw : parseAuditQuery(raw);
  const where = auditWhereSql(projectId, query);
  const [counted, people, acts, firstPage] = await Promise.all([
    db().$queryRaw<Array<{ total: number }>>(auditCountSql(where)),
    distinctValues(projectId, "actor_label"),
    distinctValues(projectId, "act"),
    // The first page (what most visits ask for) needs no total to be read: read it meanwhile.
    query.page === 1 ? readAuditRows(auditPageSql(where, query.sort, 1)) : null,
  ]);
  const total = counted[0]?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const rows = firstPage ?? (await readPage(where, query.sort, page, total));
  return { rows, total, page, pages, pageSize: AUDIT_PAGE_SIZE, query: { ...query, page }, people, acts };
}

function isParsed(raw: AuditQuery | RawSearchParams | URLSearchParams): raw is AuditQuery {
  return !(raw instanceof URLSearchParams) && typeof raw.page === "number" && typeof raw.sort === "string";
}

async function readPage(where: Prisma.Sql, sort: AuditQuery["sort"], page: number, total: number): Promise<AuditRow[]> {
  const { sql, reversed } = auditPageReadSql(where, sort, page, total);
  const rows = await readAuditRows(sql);
  return reversed ? rows.reverse() : rows;
}

/**
 * A page in the back half of the list is read from the other end, in the opposite order (to be
 * turned round): an offset walks the index entry by entry, so the last page of 100,000 events would
 * otherwise walk all of them to show fifty.
 */
export function auditPageReadSql(
  where: Prisma.Sql,
  sort: AuditQuery["sort"],
  page: number,
  total: number,
): { sql: Prisma.Sql; reversed: boolean } {
  const offset = (page - 1) * AUDIT_PAGE_SIZE;
  if (offset <= total / 2) return { sql: auditPageSql(where, sort, page), reversed: false };
  const limit = Math.min(AUDIT_PAGE_SIZE, total - offset);
  return { sql: pageOfKeys(where, sort === "oldest" ? "newest" : "oldest", limit, total - offset - limit), reversed: true };
}

/** How many events match (exact: on the indexes above it stays fast; see the scale test). */
export function auditCountSql(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`select count(*)::int as total from audit_log a where ${where}`;
}

export function auditPageSql(where: Prisma.Sql, sort: AuditQuery["sort"], page: number): Prisma.Sql {
  return pageOfKeys(where, sort, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE);
}

/**
 * The offset is walked over the page's keys alone (an index-only scan of (project_id[, act or
 * actor_label], at, id), in the list's order), then only the page's rows are read by id: walking
 * the rows themselves fetched every skipped event from the table (1.7 s for the middle page of
 * 493,000).
 */
function pageOfKeys(where: Prisma.Sql, sort: AuditQuery["sort"], limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`select ${AUDIT_COLUMNS}
      from (select a.id from audit_log a where ${where} order by ${auditOrderSql(sort)} limit ${limit} offset ${offset}) k
      join audit_log a on a.id = k.id
     order by ${auditOrderSql(sort)}`;
}

export const AUDIT_COLUMNS = Prisma.sql`a.id::text as id, a."at", a.actor_type::text as actor_type, a.actor_label, a.act,
  a.target_type, a.target_id, a.before, a.after, a.reason`;

/** Runs a select of AUDIT_COLUMNS and names its columns as the application does. */
export async function readAuditRows(sql: Prisma.Sql): Promise<AuditRow[]> {
  const rows =
    await db().$queryRaw<
      Array<{
        id: string;
        at: Date;
        actor_type: AuditRow["actorType"];
        actor_label: string;
        act: string;
        target_type: string;
        target_id: string;
        before: unknown;
        after: unknown;
        reason: string | null;
      }>
    >(sql);
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actorType: r.actor_type,
    actorLabel: r.actor_label,
    act: r.act,
    targetType: r.target_type,
    targetId: r.target_id,
    before: r.before,
    after: r.after,
    reason: r.reason,
  }));
}

/**
 * The distinct values of an indexed column within a project, by skipping through the index (one
 * index probe per value) rather than reading every row: a log of millions with a dozen people
 * answers in a dozen probes.
 */
async function distinctValues(projectId: string, column: "actor_label" | "act"): Promise<string[]> {
  const rows = await db().$queryRaw<Array<{ value: string }>>(distinctValuesSql(projectId, column));
  return rows.map((r) => r.value);
}

export function distinctValuesSql(projectId: string, column: "actor_label" | "act"): Prisma.Sql {
  const col = Prisma.raw(column);
  return Prisma.sql`
    with recursive v(value) as (
      (select a.${col} from audit_log a where a.project_id = ${projectId}::uuid order by a.${col} limit 1)
      union all
      select (select a.${col} from audit_log a
               where a.project_id = ${projectId}::uuid and a.${col} > v.value
               order by a.${col} limit 1)
        from v where v.value is not null)
    select value from v where value is not null limit ${FILTER_CHOICES}`;
}

/**
 * The statements a page of the log runs, for the pages benchmark to EXPLAIN (the feature's index
 * exports this function only): the total, the page as read (from the nearer end, given the total),
 * and the two filter lists.
 */
listAuditPage.statements = (projectId: string, raw: RawSearchParams, total: number) => {
  const query = parseAuditQuery(raw);
  const where = auditWhereSql(projectId, query);
  return {
    total: auditCountSql(where),
    page: auditPageReadSql(where, query.sort, query.page, total).sql,
    people: distinctValuesSql(projectId, "actor_label"),
    acts: distinctValuesSql(projectId, "act"),
  };
};
