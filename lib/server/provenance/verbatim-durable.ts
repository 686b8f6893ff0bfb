/**
 * Whether a session may hold a span still in its transcript (no summary replaced it) whose evidence
 * is not durable now: what a compaction hook's gate looks for before every compaction. Answered
 * from what is kept per session, not by reading its spans, which at 100,000 spans took a scan of
 * every one on every hook:
 * - span_grid_count: spans no summary replaced, by class and clock-free code (NONE, LOST,
 *   EXPIRING; recounted when the horizon moves);
 * - spans that were DURABLE until their TTL, which has passed since (span_held_expiry_idx, by
 *   expiry);
 * - summaries, which the counters leave out (span_summary_idx; a session has few).
 * False means none; true means there may be some (a PRESERVED span counts too): the caller reads them.
 */
import { sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { GRID_CODES, heldPastTtl, statusConditions } from "./status-sql";

export async function mayHoldNonDurableVerbatim(sessionId: string, now: Date, horizonDays: number): Promise<boolean> {
  const { durable } = statusConditions("s", { now, horizonDays });
  // Run on the pool without Prisma: it is asked at every hook, where Prisma's work per request cost more than the read.
  const [row] = await sqlRows<{ found: boolean }>(Prisma.sql`
    select exists (select 1 from span_grid_count g
                    where g.session_id = ${sessionId}::uuid and g.replacing_summary_id = custodian_grid_replacing(null)
                      and g.class <> 'NARRATIVE' and g.code < ${GRID_CODES.DURABLE} and g.n > 0)
        or exists (select 1 from span s
                    where s.session_id = ${sessionId}::uuid and s.kind <> 'SUMMARY' and s.original_expires_at is not null
                      and ${heldPastTtl("s", now)} and s.replacing_summary_id is null and s.class <> 'NARRATIVE')
        or exists (select 1 from span s
                    where s.session_id = ${sessionId}::uuid and s.kind = 'SUMMARY' and s.transcript_state = 'VERBATIM'
                      and s.class <> 'NARRATIVE' and not ${durable}) as found`);
  return row?.found ?? true;
}
