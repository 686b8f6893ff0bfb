/**
 * What an indexed evidence question needs to know of all its non-summary spans without reading
 * them: the seq gaps and the number of spans checked, from session counts (unchecked.ts reads the
 * spans that block, candidate-spans.ts those that may cite).
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { SeqGap } from "@/lib/evidence/questions";
import { inSessions, inTime, timed, type Scope, type ScopeSessionRow } from "./scope";
import { uncheckedParts } from "./unchecked";

/**
 * Seq gaps (seqGaps in the engine, for sessions without a declared range: holes between the seqs
 * present), read only for sessions whose counts say they have one.
 */
export async function findGaps(sessions: ScopeSessionRow[]): Promise<SeqGap[]> {
  const holed = sessions.filter((s) => s.seq_count > 0 && s.seq_max! - s.seq_min! + 1 > s.seq_count).map((s) => s.id);
  if (holed.length === 0) return [];
  const rows = await db().$queryRaw<Array<{ session_id: string; from_seq: number; to_seq: number }>>`
    select session_id::text as session_id, seq + 1 as from_seq, next_seq - 1 as to_seq
      from (select session_id, seq, lead(seq) over (partition by session_id order by seq) as next_seq
              from span where session_id = any(${holed}::uuid[]) and seq is not null) x
     where next_seq > seq + 1
     order by session_id, seq`;
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .map((r): SeqGap => ({ sessionId: r.session_id, fromSeq: r.from_seq, toSeq: r.to_seq }))
    .sort((a, b) => order.get(a.sessionId)! - order.get(b.sessionId)! || a.fromSeq - b.fromSeq);
}

/**
 * Spans whose atoms are checked, per session: every span the engine sees in scope less the
 * replaced ones that cannot be checked. Without a time range both come from session counts, but
 * for originals past their TTL and not yet swept.
 */
export async function countChecked(sessions: ScopeSessionRow[], scope: Scope, now: Date): Promise<Map<string, number>> {
  const [gone, expired] = uncheckedParts(now);
  const counts = (rows: Array<{ session_id: string; n: number }>) => new Map(rows.map((r) => [r.session_id, r.n]));
  if (!timed(scope)) {
    const passed = counts(
      await db().$queryRaw`
      select s.session_id::text as session_id, count(*)::int as n from span s where ${inSessions("s", scope)} and ${expired} group by s.session_id`,
    );
    return new Map(sessions.map((s) => [s.id, s.non_summary_count - s.unchecked_count - (passed.get(s.id) ?? 0)]));
  }
  const perSession = (condition: Prisma.Sql) =>
    db().$queryRaw<Array<{ session_id: string; n: number }>>`
      select s.session_id::text as session_id, count(*)::int as n from span s
       where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} group by s.session_id`;
  const [total, goneCounts, expiredCounts] = (
    await Promise.all([perSession(Prisma.sql`s.kind <> 'SUMMARY' and s.seq is not null`), perSession(gone), perSession(expired)])
  ).map(counts) as [Map<string, number>, Map<string, number>, Map<string, number>];
  return new Map(
    sessions.map((s) => [s.id, (total.get(s.id) ?? 0) - (goneCounts.get(s.id) ?? 0) - (expiredCounts.get(s.id) ?? 0)]),
  );
}
