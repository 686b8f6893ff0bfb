/**
 * The search indexer: moves the originals stored since it last ran (span_search_pending) into
 * span_search, a batch per statement. Ingest only writes an original's key there; the text's
 * projection and its two text indexes (trigrams and words) cost more than the rest of a span's
 * ingest, and cost less per span written a batch at a time. Search reads the pending rows too
 * (sources.ts), so what it finds does not depend on when this runs, only how fast it answers.
 *
 * Any number of servers may run it at once: each batch claims the sessions of the first pending
 * rows that no other indexer holds (a transaction-scoped advisory lock per session, taken with
 * pg_try_advisory_xact_lock, so a held one is skipped rather than waited for), and moves up to a
 * batch of those sessions' rows in one statement, so a span is never in both tables nor in
 * neither. Claims by session rather than rows locked FOR UPDATE SKIP LOCKED, which a Citus
 * cluster refuses across shards; the same statements run on one node and on a cluster.
 */
import { databaseMode, db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { pendingRows } from "./sql";

/** Spans indexed per statement: large enough that the index writes amortise, small enough to commit in well under a second. */
const SEARCH_INDEX_BATCH = 2000;
/**
 * The embedded database runs one statement at a time for every request: there a batch is kept to
 * what it indexes in a few tens of milliseconds, so a request waits for one batch at most.
 */
const EMBEDDED_SEARCH_INDEX_BATCH = 100;

/** The batch for the database this server runs on. */
const searchIndexBatch = () => (databaseMode() === "embedded" ? EMBEDDED_SEARCH_INDEX_BATCH : SEARCH_INDEX_BATCH);

/** Indexes up to `limit` pending originals; returns how many it took off the pending list. */
export async function indexPendingBatch(limit = searchIndexBatch()): Promise<number> {
  return db().$transaction(async (tx) => {
    const seen = await tx.$queryRaw<Array<{ session_id: string }>>`
      select distinct p.session_id::text as session_id from (select session_id from span_search_pending limit ${limit}) p`;
    if (seen.length === 0) return 0;
    const claimed = (
      await tx.$queryRaw<Array<{ session_id: string }>>`
        select c.session_id from unnest(${seen.map((r) => r.session_id)}::text[]) c(session_id)
         where pg_try_advisory_xact_lock(hashtext('span_search_pending'), hashtext(c.session_id))`
    ).map((r) => r.session_id);
    if (claimed.length === 0) return 0;
    const [row] = await tx.$queryRaw<Array<{ taken: number }>>`
      with batch as (
        delete from span_search_pending d
         where d.session_id = any(${claimed}::uuid[])
           and (d.session_id, d.span_id) in (
             select session_id, span_id from span_search_pending where session_id = any(${claimed}::uuid[]) limit ${limit})
        returning d.session_id, d.span_id),
      written as (
        insert into span_search (project_id, session_id, span_id, occurred_at, body, words, kept)
        ${pendingRows(Prisma.sql`batch`)}
        on conflict (session_id, span_id) do update
          set project_id = excluded.project_id, occurred_at = excluded.occurred_at, body = excluded.body, words = excluded.words, kept = false)
      select (select count(*) from batch)::int as taken`;
    return row?.taken ?? 0;
  });
}

/** Indexes batches until none is pending (or only rows another indexer holds); returns how many it indexed. */
export async function indexAllPending(limit = searchIndexBatch()): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await indexPendingBatch(limit);
    total += taken;
    if (taken < limit) return total;
  }
}

/** How many originals wait to be indexed (search finds them meanwhile, reading their text as it goes). */
export async function pendingSearchCount(): Promise<number> {
  const [row] = await db().$queryRaw<Array<{ n: number }>>`select count(*)::int as n from span_search_pending`;
  return row?.n ?? 0;
}
