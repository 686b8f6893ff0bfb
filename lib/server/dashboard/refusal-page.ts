/**
 * One page of the refusals list and its totals, in one statement (one snapshot): the page's rows,
 * each gate request with its refusals' count, cells, reasons and first spans, and the list's totals
 * (requests, refusals, compactions without asking, rows ahead of the page). What the page shows and
 * what its figures say cannot disagree, even while refusals arrive.
 *
 * Requests are read from refusal_event_request_idx in the list's order, grouped as they come (every
 * refusal of a request has the request's time), so a page stops after its rows; compactions from
 * their (project_id, asked, occurred_at) index. Totals walk the same index ranges.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  compactionWhereSql,
  REFUSAL_PAGE_SIZE,
  type RefusalListKey,
  type RefusalListQuery,
  REQUEST_KEY,
  refusalCursor,
  refusalWhereSql,
} from "./refusal-list";

/** The refused spans a request's row names (its count is exact; a longer list says how many more). */
export const REQUEST_SPANS_SHOWN = 100;

/** How a page is read: its size, the direction of the read, and the row it starts past (exclusive). */
export interface RefusalPageRead {
  limit: number;
  descending: boolean;
  past: RefusalListKey | null;
}

/** The read a query asks for: forward from `after` (or the start), backward from `before`. */
export function refusalPageRead(query: RefusalListQuery, limit = REFUSAL_PAGE_SIZE): RefusalPageRead & { backward: boolean } {
  const cursor = refusalCursor(query);
  const newestFirst = query.sort === "newest";
  const backward = cursor?.before ?? false;
  return { limit, descending: newestFirst !== backward, past: cursor?.key ?? null, backward };
}

const keyOf = (key: RefusalListKey) => Prisma.sql`(${new Date(key.at)}, ${key.sessionId}::uuid, ${key.id}::uuid)`;

/** `(time, session, id) op key` on refusals (r) or compactions (c). */
function keyset(alias: "r" | "c", op: string, key: RefusalListKey): Prisma.Sql {
  const id = alias === "r" ? REQUEST_KEY : Prisma.raw("c.id");
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}.occurred_at, ${a}.session_id, ${id}) ${Prisma.raw(op)} ${keyOf(key)}`;
}

const and = (parts: Array<Prisma.Sql | null>) =>
  Prisma.join(
    parts.filter((p): p is Prisma.Sql => p !== null),
    " and ",
  );

/** The page's rows (up to limit + 1: one more says whether the read goes on), as (kind, occurred_at, session_id, id). */
function pageRowsSql(refusals: Prisma.Sql | null, compactions: Prisma.Sql | null, read: RefusalPageRead): Prisma.Sql {
  const d = Prisma.raw(read.descending ? "desc" : "asc");
  const op = read.descending ? "<" : ">";
  const take = read.limit + 1;
  const sources: Prisma.Sql[] = [];
  if (refusals) {
    const where = and([refusals, read.past ? keyset("r", op, read.past) : null]);
    sources.push(Prisma.sql`(select 'refusal'::text as kind, r.occurred_at, r.session_id, ${REQUEST_KEY} as id
        from refusal_event r where ${where}
       group by r.occurred_at, r.session_id, ${REQUEST_KEY}
       order by r.occurred_at ${d}, r.session_id ${d}, ${REQUEST_KEY} ${d} limit ${take})`);
  }
  if (compactions) {
    const where = and([compactions, read.past ? keyset("c", op, read.past) : null]);
    sources.push(Prisma.sql`(select 'compaction'::text as kind, c.occurred_at, c.session_id, c.id
        from compaction c where ${where}
       order by c.occurred_at ${d}, c.session_id ${d}, c.id ${d} limit ${take})`);
  }
  if (sources.length === 0)
    return Prisma.sql`select null::text as kind, null::timestamp as occurred_at, null::uuid as session_id, null::uuid as id where false`;
  return Prisma.sql`select kind, occurred_at, session_id, id from (${Prisma.join(sources, " union all ")}) u
    order by occurred_at ${d}, session_id ${d}, id ${d} limit ${take}`;
}

/** Requests (distinct (time, session, request)) among the refusals matching `where`, with their refusals: one walk. */
const requestTotalsSql = (where: Prisma.Sql) =>
  Prisma.sql`select count(*)::int as requests, coalesce(sum(n), 0)::int as refusals
    from (select count(*) as n from refusal_event r where ${where} group by r.occurred_at, r.session_id, ${REQUEST_KEY}) g`;
const requestCountSql = (where: Prisma.Sql) => Prisma.sql`(select requests from (${requestTotalsSql(where)}) t)`;

/**
 * The rows of the list that come before `key` in the list's order (`inclusive`: and `key` itself):
 * where a page after or before it starts.
 */
function rowsAheadSql(
  refusals: Prisma.Sql | null,
  compactions: Prisma.Sql | null,
  key: RefusalListKey,
  newestFirst: boolean,
  inclusive: boolean,
): Prisma.Sql {
  const op = `${newestFirst ? ">" : "<"}${inclusive ? "=" : ""}`;
  const r = refusals ? requestCountSql(and([refusals, keyset("r", op, key)])) : Prisma.sql`0`;
  const c = compactions
    ? Prisma.sql`(select count(*) from compaction c where ${and([compactions, keyset("c", op, key)])})`
    : Prisma.sql`0`;
  return Prisma.sql`(${r} + ${c})`;
}

/** The whole statement: the page's rows with their details, each carrying the list's totals. */
export function refusalPageSql(
  projectId: string,
  query: RefusalListQuery,
  now: Date,
  read: RefusalPageRead & { backward: boolean },
) {
  const refusals = refusalWhereSql(projectId, query, now);
  const compactions = compactionWhereSql(projectId, query, now);
  const newestFirst = query.sort === "newest";
  const ahead = read.past ? rowsAheadSql(refusals, compactions, read.past, newestFirst, !read.backward) : Prisma.sql`0`;
  const d = Prisma.raw(read.descending ? "desc" : "asc");
  // A page request's own refusals among those matching: the same conditions, at the request's key.
  // Joined to the page, not read laterally per row: a distributed refusal_event (Citus) joins a
  // small intermediate result, where a lateral subquery per page row is refused.
  const mine = and([
    refusals ?? Prisma.sql`false`,
    Prisma.sql`p.kind = 'refusal' and r.occurred_at = p.occurred_at and r.session_id = p.session_id and ${REQUEST_KEY} = p.id`,
  ]);
  // The page's requests' refusals, read once: their details and first spans are both made of them.
  const refused = refusals
    ? Prisma.sql`select p.occurred_at, p.session_id, p.id, r.id as refusal_id, r.span_id, r.span_seq, r.atoms_at_risk, r.reason,
             r.cell_class, r.cell_provenance, r.requester
        from page p join refusal_event r on ${mine}`
    : Prisma.sql`select null::timestamp as occurred_at, null::uuid as session_id, null::uuid as id, null::uuid as refusal_id,
             null::uuid as span_id, null::int as span_seq, null::jsonb as atoms_at_risk, null::text as reason,
             null::"EvidentialClass" as cell_class, null::"ProvenanceStatus" as cell_provenance, null::text as requester where false`;
  // Each request's details, and its first spans by seq (REQUEST_SPANS_SHOWN of them) numbered within
  // the request by the seq each refusal carries, not a join of every refusal of the page to span.
  return Prisma.sql`
    with page as (${pageRowsSql(refusals, compactions, read)}),
    titles as (select se.id, coalesce(se.title, se.external_id) as title from session se join page p on se.id = p.session_id),
    refused as (${refused}),
    details as (
      select x.occurred_at, x.session_id, x.id, count(*)::int as refused,
             coalesce(sum(case when jsonb_typeof(x.atoms_at_risk) = 'array' then jsonb_array_length(x.atoms_at_risk) else 0 end), 0)::int as atoms,
             array_agg(distinct x.reason) as reasons,
             array_agg(distinct x.cell_class::text || ':' || x.cell_provenance::text) as cells,
             min(x.requester) as requester
        from refused x
       group by x.occurred_at, x.session_id, x.id
    ),
    spans as (
      select occurred_at, session_id, id,
             json_agg(json_build_object('refusalId', refusal_id, 'spanId', span_id, 'seq', span_seq) order by span_seq nulls last, refusal_id)::text as spans
        from (select x.*, row_number() over (partition by x.occurred_at, x.session_id, x.id order by x.span_seq nulls last, x.refusal_id) as n
                from refused x) x
       where n <= ${REQUEST_SPANS_SHOWN}
       group by occurred_at, session_id, id
    ),
    totals as (
      select rt.requests, rt.refusals,
             ${compactions ? Prisma.sql`(select count(*) from compaction c where ${compactions})` : Prisma.sql`0`}::int as compactions,
             ${ahead}::int as ahead
        from (${refusals ? requestTotalsSql(refusals) : Prisma.sql`select 0 as requests, 0 as refusals`}) rt
    )
    select t.requests, t.refusals, t.compactions, t.ahead,
           p.kind, to_char(p.occurred_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, p.session_id::text as session_id, p.id::text as id,
           (select title from titles where titles.id = p.session_id limit 1) as session_title,
           g.refused, g.atoms, g.reasons, g.cells, g.requester, sp.spans
      from totals t
      left join page p on true
      left join details g on p.kind = 'refusal' and g.occurred_at = p.occurred_at and g.session_id = p.session_id and g.id = p.id
      left join spans sp on p.kind = 'refusal' and sp.occurred_at = p.occurred_at and sp.session_id = p.session_id and sp.id = p.id
     order by p.occurred_at ${d}, p.session_id ${d}, p.id ${d}`;
}

export interface RefusalPageRow {
  kind: "refusal" | "compaction";
  at: string;
  sessionId: string;
  id: string;
  sessionTitle: string;
  /** A request's refusals (matching the filters), their atoms at risk, reasons, cells, requester and first spans. */
  refused: number;
  atoms: number;
  reasons: string[];
  cells: string[];
  requester: string | null;
  spans: Array<{ refusalId: string; spanId: string; seq: number | null }>;
}

export interface RefusalPage {
  /** The page's rows in the list's order. */
  rows: RefusalPageRow[];
  totals: { requests: number; refusals: number; compactions: number };
  /** Rows of the list before the page; whether rows come before it, and after it. */
  ahead: number;
  hasBefore: boolean;
  hasAfter: boolean;
}

type Raw = {
  requests: number;
  refusals: number;
  compactions: number;
  ahead: number;
  kind: "refusal" | "compaction" | null;
  at: string | null;
  session_id: string | null;
  id: string | null;
  session_title: string | null;
  refused: number | null;
  atoms: number | null;
  reasons: string[] | null;
  cells: string[] | null;
  requester: string | null;
  spans: string | null;
};

/** One page of the list with its totals, read in one statement. */
export async function refusalListPage(projectId: string, query: RefusalListQuery, now: Date): Promise<RefusalPage> {
  const read = refusalPageRead(query);
  const raw = await db().$queryRaw<Raw[]>(refusalPageSql(projectId, query, now, read));
  const first = raw[0]!;
  const rows: RefusalPageRow[] = raw
    .filter((r) => r.kind !== null)
    .map((r) => ({
      kind: r.kind!,
      at: r.at!,
      sessionId: r.session_id!,
      id: r.id!,
      sessionTitle: r.session_title ?? "",
      refused: r.refused ?? 0,
      atoms: r.atoms ?? 0,
      reasons: r.kind === "refusal" ? (r.reasons ?? []) : [],
      cells: r.kind === "refusal" ? (r.cells ?? []) : [],
      requester: r.requester,
      spans: r.spans ? (JSON.parse(r.spans) as RefusalPageRow["spans"]) : [],
    }));
  const more = rows.length > read.limit;
  const page = rows.slice(0, read.limit);
  if (read.backward) page.reverse();
  const ahead = read.backward ? Math.max(0, first.ahead - page.length) : first.ahead;
  return {
    rows: page,
    totals: { requests: first.requests, refusals: first.refusals, compactions: first.compactions },
    ahead,
    hasBefore: read.backward ? more : ahead > 0,
    hasAfter: read.backward ? read.past !== null : more,
  };
}
