/**
 * A project's import jobs, paged on the server with the exact total: filtered by status, newest or
 * oldest first, through import_job's (project_id, created_at) index.
 */
import { z } from "zod";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { nearerEnd, pageParam, pageWithin, parseListQuery, type RawSearchParams } from "./list-query";

export const IMPORT_PAGE_SIZE = 25;
/** Sessions linked from an import's row; a file of hundreds of sessions says how many more. */
export const SESSION_LINKS = 5;
export const IMPORT_STATUSES = ["RUNNING", "DONE", "FAILED"] as const;
export const IMPORT_SORTS = ["newest", "oldest"] as const;

export const ImportListQuerySchema = z.object({
  page: pageParam,
  sort: z.enum(IMPORT_SORTS).default("newest"),
  status: z.enum(IMPORT_STATUSES).optional(),
});
export type ImportListQuery = z.output<typeof ImportListQuerySchema>;
export const IMPORT_LIST_DEFAULTS = { page: 1, sort: "newest" } as const;

export function parseImportListQuery(raw: RawSearchParams | URLSearchParams): ImportListQuery {
  return parseListQuery(ImportListQuerySchema, raw, "The imports filter");
}

export interface ImportListRow {
  id: string;
  format: string | null;
  status: (typeof IMPORT_STATUSES)[number];
  byteLength: number;
  spansDone: number;
  spansTotal: number;
  /** The file's records as its outcome counts them (read == used + ignored + skipped); null until done. */
  records: { read: number; used: number; ignored: number; skipped: number } | null;
  sessions: number | null;
  /** The first SESSION_LINKS sessions the import made or added to, for links to them. */
  sessionLinks: Array<{ id: string; externalId: string }>;
  error: string | null;
  requester: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ImportListPage {
  rows: ImportListRow[];
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  query: ImportListQuery;
  /** Some import of the project is still running (on this page or not): the page polls until none is. */
  running: boolean;
}

function whereSql(projectId: string, query: ImportListQuery): Prisma.Sql {
  const c = [Prisma.sql`j.project_id = ${projectId}::uuid`];
  if (query.status) c.push(Prisma.sql`j.status = ${query.status}::"ImportStatus"`);
  return Prisma.join(c, " and ");
}

export function importCountSql(projectId: string, query: ImportListQuery): Prisma.Sql {
  return Prisma.sql`select count(*)::int as total from import_job j where ${whereSql(projectId, query)}`;
}

/** A page of jobs with only the outcome's counts taken from its JSON (its issues can be long). */
export function importPageSql(
  projectId: string,
  query: ImportListQuery,
  read: { offset: number; limit: number; descending: boolean },
): Prisma.Sql {
  const dir = Prisma.raw(read.descending ? "desc" : "asc");
  return Prisma.sql`
    select j.id::text as id, j.format, j.status::text as status, j.byte_length, j.spans_done, j.spans_total,
           j.outcome -> 'records' as records, jsonb_array_length(case when jsonb_typeof(j.outcome -> 'sessions') = 'array'
           then j.outcome -> 'sessions' end) as sessions,
           (select coalesce(jsonb_agg(jsonb_build_object('id', t.value ->> 'id', 'externalId', t.value ->> 'externalId')), '[]'::jsonb)
              from (select value from jsonb_array_elements(case when jsonb_typeof(j.outcome -> 'sessions') = 'array'
                    then j.outcome -> 'sessions' else '[]'::jsonb end) limit ${SESSION_LINKS}) t) as session_links,
           j.error, j.requester, j.created_at, j.updated_at
      from import_job j
     where ${whereSql(projectId, query)}
     order by j.created_at ${dir}, j.id ${dir}
     limit ${read.limit} offset ${read.offset}`;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

export async function listImportPage(
  projectId: string,
  raw: ImportListQuery | RawSearchParams | URLSearchParams,
): Promise<ImportListPage> {
  const query = isParsed(raw) ? raw : parseImportListQuery(raw);
  const [[{ total } = { total: 0 }], [{ running } = { running: false }]] = await Promise.all([
    db().$queryRaw<Array<{ total: number }>>(importCountSql(projectId, query)),
    db().$queryRaw<Array<{ running: boolean }>>`select exists (select 1 from import_job
      where project_id = ${projectId}::uuid and status = 'RUNNING'::"ImportStatus") as running`,
  ]);
  const { page, pages } = pageWithin(query.page, total, IMPORT_PAGE_SIZE);
  const read = nearerEnd(page, IMPORT_PAGE_SIZE, total);
  const rows =
    read.limit === 0
      ? []
      : await db().$queryRaw<
          Array<{
            id: string;
            format: string | null;
            status: ImportListRow["status"];
            byte_length: number;
            spans_done: number;
            spans_total: number;
            records: Record<string, unknown> | null;
            sessions: number | null;
            session_links: Array<{ id: unknown; externalId: unknown }> | null;
            error: string | null;
            requester: string;
            created_at: Date;
            updated_at: Date;
          }>
        >(importPageSql(projectId, query, { ...read, descending: (query.sort === "newest") !== read.reversed }));
  if (read.reversed) rows.reverse();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      format: r.format,
      status: r.status,
      byteLength: r.byte_length,
      spansDone: r.spans_done,
      spansTotal: r.spans_total,
      records:
        r.records && typeof r.records === "object"
          ? {
              read: count(r.records.read),
              used: count(r.records.used),
              ignored: count(r.records.ignored),
              skipped: count(r.records.skipped),
            }
          : null,
      sessions: r.sessions,
      sessionLinks: (r.session_links ?? [])
        .filter((l) => typeof l.id === "string")
        .map((l) => ({ id: String(l.id), externalId: typeof l.externalId === "string" ? l.externalId : String(l.id) })),
      error: r.error,
      requester: r.requester,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
    total,
    page,
    pages,
    pageSize: IMPORT_PAGE_SIZE,
    query: { ...query, page },
    running,
  };
}

function isParsed(raw: ImportListQuery | RawSearchParams | URLSearchParams): raw is ImportListQuery {
  return !(raw instanceof URLSearchParams) && typeof raw.page === "number";
}

/** A page of imports as JSON carries it (times as ISO strings): what the Imports page polls. */
export type ImportListJson = Omit<ImportListPage, "rows"> & {
  rows: Array<Omit<ImportListRow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string }>;
};

export function importListJson(page: ImportListPage): ImportListJson {
  return {
    ...page,
    rows: page.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() })),
  };
}
