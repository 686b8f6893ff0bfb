/**
 * Search reads two sources: span_search (indexed), and the originals waiting for the search indexer
 * (pending, their text projected as it is read; lib/server/search/indexer.ts). Each statement reads
 * both in one snapshot, so a span the indexer moves meanwhile is seen once, never twice nor not at
 * all (the indexer moves it in one statement). Each source is a subquery with its own order and
 * limit, planned on its own: one UNION of the two sources under one order misled the planner's
 * estimates into sorting every match of a common word (seconds at a million spans), where the
 * indexed source alone reads 21 rows of an index. The rows merge here, in SQL's order.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { SearchCursor } from "./cursor";
import type { SearchTerm } from "./query";
import { afterCursor, NEWEST_ORDER, pendingRows, rankQuery } from "./sql";

export type Source = "indexed" | "pending";

/** Each source as span_search's columns. */
export const RELATIONS: Record<Source, Prisma.Sql> = {
  indexed: Prisma.sql`span_search`,
  pending: Prisma.sql`(${pendingRows(Prisma.sql`span_search_pending`)})`,
};

/** `x` (the source) joined to `s` (its span), as every search statement reads them. */
const fromSource = (source: Source) =>
  Prisma.sql`${RELATIONS[source]} x join span s on s.session_id = x.session_id and s.id = x.span_id`;

/** A match's place in the results: its span, its time, and its rank (0 when newest first). */
export interface MatchKey {
  session_id: string;
  span_id: string;
  occurred_at: Date;
  rank: number;
}

type SourcedKey = MatchKey & { source: Source };

/** One statement over both sources' keys, each its own subquery (its own order and limit), tagged with its source. */
const bothSources = (indexed: Prisma.Sql, pending: Prisma.Sql) =>
  db().$queryRaw<SourcedKey[]>`
    select 'indexed' as source, i.* from (${indexed}) i union all select 'pending' as source, p.* from (${pending}) p`;

const merged = (rows: SourcedKey[], order: (a: MatchKey, b: MatchKey) => number, limit: number): MatchKey[] =>
  rows
    .map(({ source: _, ...key }) => key)
    .sort(order)
    .slice(0, limit);

/** Matches counted up to `cap` + 1 (more means "more than cap"). */
export async function countMatches(where: Prisma.Sql, cap: number): Promise<number> {
  const count = (source: Source) =>
    Prisma.sql`(select count(*) from (select 1 from ${fromSource(source)} where ${where} limit ${cap + 1}) m)`;
  const [row] = await db().$queryRaw<Array<{ n: number }>>`select (${count("indexed")} + ${count("pending")})::int as n`;
  return Math.min(cap + 1, row?.n ?? 0);
}

/** Newest first, as SQL orders NEWEST_ORDER: uuids compare as their lowercase text does. */
function newestFirst(a: MatchKey, b: MatchKey): number {
  const at = b.occurred_at.getTime() - a.occurred_at.getTime();
  if (at !== 0) return at;
  if (a.session_id !== b.session_id) return a.session_id < b.session_id ? -1 : 1;
  return a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0;
}

const byRank = (a: MatchKey, b: MatchKey) => b.rank - a.rank || newestFirst(a, b);

/**
 * The first `limit` matches newest first, after the cursor's. With `walk` (newestWalk: a term with
 * many matches), the indexed source is first read along it; fewer than `limit` matches there, and
 * its whole order is read as the planner plans it.
 */
export async function newestKeys(
  where: Prisma.Sql,
  after: SearchCursor | undefined,
  limit: number,
  walk?: Prisma.Sql,
): Promise<MatchKey[]> {
  const page = (from: Prisma.Sql) =>
    Prisma.sql`select x.session_id::text as session_id, x.span_id::text as span_id, x.occurred_at, 0::real as rank
                 from ${from} where ${where} and ${afterCursor(after)} order by ${NEWEST_ORDER} limit ${limit}`;
  const pending = page(fromSource("pending"));
  if (walk) {
    const rows = await bothSources(
      page(Prisma.sql`${walk} x join span s on s.session_id = x.session_id and s.id = x.span_id`),
      pending,
    );
    if (rows.filter((r) => r.source === "indexed").length >= limit) return merged(rows, newestFirst, limit);
  }
  return merged(await bothSources(page(fromSource("indexed")), pending), newestFirst, limit);
}

/** The first `limit` matches by rank of the terms as words, newest first among equals. */
export async function rankedKeys(where: Prisma.Sql, terms: readonly SearchTerm[], limit: number): Promise<MatchKey[]> {
  const ranked = (source: Source) =>
    Prisma.sql`select x.session_id::text as session_id, x.span_id::text as span_id, x.occurred_at,
                      ts_rank(x.words, ${rankQuery(terms)}) as rank
                 from ${fromSource(source)} where ${where}
                order by rank desc, ${NEWEST_ORDER} limit ${limit}`;
  return merged(await bothSources(ranked("indexed"), ranked("pending")), byRank, limit);
}
