/**
 * A project's refusals and compactions done without asking, as one list paged on the server with
 * its exact total: filtered by cell, requester, days and session, newest or oldest first. Each
 * table is read through its (project_id, occurred_at) index; a page in the back half is read
 * from the other end.
 */
import { z } from "zod";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import { exactText, nearerEnd, pageParam, pageWithin, parseListQuery, type RawSearchParams } from "./list-query";
import { dayParam, rangeParam, timeWindow } from "@/lib/core/time-range";

/** Events on one page of the refusals list. */
export const REFUSAL_PAGE_SIZE = 50;
/** What the list shows: refusals, compactions done without asking the gate, or both. */
export const FEED_SHOWS = ["both", "refusals", "compactions"] as const;
export const REFUSAL_SORTS = ["newest", "oldest"] as const;
const DAY_MS = 86_400_000;

export const RefusalListQuerySchema = z
  .object({
    page: pageParam,
    sort: z.enum(REFUSAL_SORTS).default("newest"),
    show: z.enum(FEED_SHOWS).default("both"),
    session: z.uuid({ error: "Expected a session id" }).optional(),
    cellClass: z.enum(EVIDENTIAL_CLASSES).optional(),
    cellProvenance: z.enum(PROVENANCE_STATUSES).optional(),
    /** Who asked, exactly as recorded (a key's label, a person, an importer). */
    requester: exactText(320).optional(),
    from: dayParam.optional(),
    to: dayParam.optional(),
    /** The project views' time range (time-range.ts); `from` wins when both are given. */
    range: rangeParam.optional(),
    /** The last this many days (older links); `from` and `range` win when given. */
    days: z.coerce.number({ error: "Expected a number of days" }).int().min(1).max(3650).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "The range ends before it starts" });
  });

export type RefusalListQuery = z.output<typeof RefusalListQuerySchema>;
export const REFUSAL_LIST_DEFAULTS = { page: 1, sort: "newest", show: "both" } as const;

export function parseRefusalListQuery(raw: RawSearchParams | URLSearchParams): RefusalListQuery {
  return parseListQuery(RefusalListQuerySchema, raw, "The refusals filter");
}

/** The instants the query's days cover: [since, until). */
export function refusalWindow(query: RefusalListQuery, now: Date): { since?: Date; until?: Date } {
  const { since, until } = timeWindow(query, now);
  return { since: since ?? (query.days ? new Date(now.getTime() - query.days * DAY_MS) : undefined), until };
}

/** Conditions on refusal_event (alias r), the project first. */
export function refusalWhereSql(projectId: string, query: RefusalListQuery, now: Date): Prisma.Sql {
  const { since, until } = refusalWindow(query, now);
  const c: Prisma.Sql[] = [Prisma.sql`r.project_id = ${projectId}::uuid`];
  if (query.session) c.push(Prisma.sql`r.session_id = ${query.session}::uuid`);
  if (query.cellClass) c.push(Prisma.sql`r.cell_class = ${query.cellClass}::"EvidentialClass"`);
  if (query.cellProvenance) c.push(Prisma.sql`r.cell_provenance = ${query.cellProvenance}::"ProvenanceStatus"`);
  if (query.requester) c.push(Prisma.sql`r.requester = ${query.requester}`);
  if (since) c.push(Prisma.sql`r.occurred_at >= ${since}`);
  if (until) c.push(Prisma.sql`r.occurred_at < ${until}`);
  return Prisma.join(c, " and ");
}

/** Conditions on compaction (alias c): done without asking, in the project; a cell filter keeps to refusals. */
export function compactionWhereSql(projectId: string, query: RefusalListQuery, now: Date): Prisma.Sql | null {
  if (query.show === "refusals" || query.cellClass || query.cellProvenance) return null;
  const { since, until } = refusalWindow(query, now);
  const c: Prisma.Sql[] = [Prisma.sql`c.project_id = ${projectId}::uuid`, Prisma.sql`c.asked = false`];
  if (query.session) c.push(Prisma.sql`c.session_id = ${query.session}::uuid`);
  if (query.requester) c.push(Prisma.sql`c.requester = ${query.requester}`);
  if (since) c.push(Prisma.sql`c.occurred_at >= ${since}`);
  if (until) c.push(Prisma.sql`c.occurred_at < ${until}`);
  return Prisma.join(c, " and ");
}

export interface RefusalListKey {
  kind: "refusal" | "compaction";
  sessionId: string;
  id: string;
  occurredAt: Date;
}

function parts(projectId: string, query: RefusalListQuery, now: Date) {
  return {
    refusals: query.show === "compactions" ? null : refusalWhereSql(projectId, query, now),
    compactions: compactionWhereSql(projectId, query, now),
  };
}

/** How many events match, per table: each counted over its project index. */
export function refusalCountSql(projectId: string, query: RefusalListQuery, now: Date): Prisma.Sql {
  const { refusals, compactions } = parts(projectId, query, now);
  const r = refusals ? Prisma.sql`(select count(*) from refusal_event r where ${refusals})` : Prisma.sql`0`;
  const c = compactions ? Prisma.sql`(select count(*) from compaction c where ${compactions})` : Prisma.sql`0`;
  return Prisma.sql`select ${r}::int as refusals, ${c}::int as compactions`;
}

/**
 * The keys of one page. From one table (the other holds none here): an offset walk of its index.
 * From both: each table's first offset+limit events in the order asked, merged, then the page cut
 * from them. `descending` is the order read (turned round for a back-half page).
 */
export function refusalPageSql(
  projectId: string,
  query: RefusalListQuery,
  now: Date,
  read: { offset: number; limit: number; descending: boolean },
  present: { refusals: boolean; compactions: boolean } = { refusals: true, compactions: true },
): Prisma.Sql {
  const { refusals, compactions } = parts(projectId, query, now);
  const dir = Prisma.raw(read.descending ? "desc" : "asc");
  const sources: Array<{ sql: Prisma.Sql; alone: Prisma.Sql }> = [];
  const add = (kind: string, table: string, alias: string, where: Prisma.Sql) => {
    const a = Prisma.raw(alias);
    const select = Prisma.sql`select ${kind}::text as kind, ${a}.session_id::text as session_id, ${a}.id::text as id, ${a}.occurred_at
      from ${Prisma.raw(table)} ${a} where ${where} order by ${a}.occurred_at ${dir}, ${a}.id ${dir}`;
    sources.push({
      sql: Prisma.sql`(${select} limit ${read.offset + read.limit})`,
      alone: Prisma.sql`${select} limit ${read.limit} offset ${read.offset}`,
    });
  };
  if (refusals && present.refusals) add("refusal", "refusal_event", "r", refusals);
  if (compactions && present.compactions) add("compaction", "compaction", "c", compactions);
  if (sources.length === 0)
    return Prisma.sql`select null::text as kind, null::text as session_id, null::text as id, null::timestamp as occurred_at where false`;
  if (sources.length === 1) return sources[0]!.alone;
  return Prisma.sql`select kind, session_id, id, occurred_at
    from (${Prisma.join(
      sources.map((x) => x.sql),
      " union all ",
    )}) u
    order by occurred_at ${dir}, id ${dir} limit ${read.limit} offset ${read.offset}`;
}

/** One page of keys, the exact total and where the page is. */
export async function refusalListPage(projectId: string, query: RefusalListQuery, now: Date) {
  const [counted = { refusals: 0, compactions: 0 }] = await db().$queryRaw<Array<{ refusals: number; compactions: number }>>(
    refusalCountSql(projectId, query, now),
  );
  const total = counted.refusals + counted.compactions;
  const { page, pages } = pageWithin(query.page, total, REFUSAL_PAGE_SIZE);
  const read = nearerEnd(page, REFUSAL_PAGE_SIZE, total);
  const newestFirst = query.sort === "newest";
  const rows =
    read.limit === 0
      ? []
      : await db().$queryRaw<Array<{ kind: RefusalListKey["kind"]; session_id: string; id: string; occurred_at: Date }>>(
          refusalPageSql(
            projectId,
            query,
            now,
            { ...read, descending: newestFirst !== read.reversed },
            { refusals: counted.refusals > 0, compactions: counted.compactions > 0 },
          ),
        );
  const keys: RefusalListKey[] = rows.map((r) => ({
    kind: r.kind,
    sessionId: r.session_id,
    id: r.id,
    occurredAt: r.occurred_at,
  }));
  if (read.reversed) keys.reverse();
  return { keys, total, page, pages };
}
