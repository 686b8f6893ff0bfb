/**
 * What an indexed evidence question needs to know of all its non-summary spans without reading
 * them: the seq gaps and the number of spans checked, from session counts (unchecked.ts reads the
 * spans that block, candidate-spans.ts those that may cite); which sessions have spans in its
 * time range; and the records their imports skipped.
 */
import { sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { SeqGap, SkippedRecordRef } from "@/lib/evidence/questions";
import { EVIDENTIAL_CLASSES } from "@/lib/evidence/types";
import { sqlTime } from "@/lib/server/provenance";
import { inSessions, inTime, timed, type Scope, type ScopeSessionRow } from "./scope";
import { uncheckedParts } from "./unchecked";

/**
 * Seq gaps (seqGaps in the engine, for sessions without a declared range: holes between the seqs
 * present), read only for sessions whose counts say they have one.
 */
export async function findGaps(sessions: ScopeSessionRow[]): Promise<SeqGap[]> {
  const holed = sessions.filter((s) => s.seq_count > 0 && s.seq_max! - s.seq_min! + 1 > s.seq_count).map((s) => s.id);
  if (holed.length === 0) return [];
  const rows = await sqlRows<{ session_id: string; from_seq: number; to_seq: number }>(Prisma.sql`
    select session_id::text as session_id, seq + 1 as from_seq, next_seq - 1 as to_seq
      from (select session_id, seq, lead(seq) over (partition by session_id order by seq) as next_seq
              from span where session_id = any(${holed}::uuid[]) and seq is not null) x
     where next_seq > seq + 1
     order by session_id, seq`);
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .map((r): SeqGap => ({ sessionId: r.session_id, fromSeq: r.from_seq, toSeq: r.to_seq }))
    .sort((a, b) => order.get(a.sessionId)! - order.get(b.sessionId)! || a.fromSeq - b.fromSeq);
}

/**
 * Spans whose atoms are checked, per session: every span the engine sees in scope less the
 * replaced ones that cannot be checked. Both come from session counts (but for originals past
 * their TTL and not yet swept) for every session whose spans all lie in the time range, which
 * its first and last span by time tell (two probes of an index); none for a session whose spans
 * all lie outside it; only sessions the range cuts are counted span by span.
 */
export async function countChecked(sessions: ScopeSessionRow[], scope: Scope, now: Date): Promise<Map<string, number>> {
  const [gone, expired] = uncheckedParts(now);
  const counts = (rows: Array<{ session_id: string; n: number }>) => new Map(rows.map((r) => [r.session_id, r.n]));
  const fromCounts = async (whole: ScopeSessionRow[], within: Scope) => {
    if (whole.length === 0) return [];
    const passed = counts(
      await sqlRows<{ session_id: string; n: number }>(Prisma.sql`
      select s.session_id::text as session_id, count(*)::int as n from span s where ${inSessions("s", within)} and ${expired} group by s.session_id`),
    );
    return whole.map((s): [string, number] => [s.id, s.non_summary_count - s.unchecked_count - (passed.get(s.id) ?? 0)]);
  };
  if (!timed(scope)) return new Map(await fromCounts(sessions, scope));
  const place = await placeInRange(sessions, scope);
  const whole = sessions.filter((s) => place.get(s.id) === "inside");
  // Those wholly outside the range have no span in it to check.
  const cut = sessions.filter((s) => !place.has(s.id));
  const wholeScope = { ...scope, sessionIds: whole.map((s) => s.id) };
  const cutScope = { ...scope, sessionIds: cut.map((s) => s.id) };
  const perSession = (condition: Prisma.Sql) =>
    cut.length === 0
      ? Promise.resolve([])
      : sqlRows<{ session_id: string; n: number }>(Prisma.sql`
      select s.session_id::text as session_id, count(*)::int as n from span s
       where ${inSessions("s", cutScope)} and ${inTime("s", cutScope)} and ${condition} group by s.session_id`);
  // Every class named: the unchecked spans' index leads with (session, class, time), and without
  // a class the range bounds nothing, so every unchecked span of each session was read.
  const goneInRange = Prisma.sql`${gone} and s.class = any(${[...EVIDENTIAL_CLASSES]}::"EvidentialClass"[])`;
  const [fromWhole, total, goneCounts, expiredCounts] = await Promise.all([
    fromCounts(whole, wholeScope),
    ...[Prisma.sql`s.kind <> 'SUMMARY' and s.seq is not null`, goneInRange, expired].map(async (c) =>
      counts(await perSession(c)),
    ),
  ]);
  const checked = new Map(fromWhole as Array<[string, number]>);
  for (const s of sessions) if (place.get(s.id) === "outside") checked.set(s.id, 0);
  for (const s of cut) {
    const [t, g, e] = [total, goneCounts, expiredCounts] as Array<Map<string, number>>;
    checked.set(s.id, (t!.get(s.id) ?? 0) - (g!.get(s.id) ?? 0) - (e!.get(s.id) ?? 0));
  }
  return checked;
}

/**
 * Where each session's spans that the engine sees lie against the scope's time range, from the
 * first and last of them by time (two probes of span_transcript_time_idx): all inside it, all
 * outside it (or none at all), or neither (absent: the range cuts the session). (From the session
 * rows, not a list of ids: Citus pushes a lateral join down only from a table distributed like span.)
 */
async function placeInRange(sessions: ScopeSessionRow[], scope: Scope): Promise<Map<string, "inside" | "outside">> {
  if (sessions.length === 0) return new Map();
  const seen = Prisma.sql`s.kind <> 'SUMMARY' and s.seq is not null`;
  const before = scope.from ? Prisma.sql`hi.occurred_at < ${sqlTime(scope.from)}` : Prisma.sql`false`;
  const after = scope.to ? Prisma.sql`lo.occurred_at >= ${sqlTime(scope.to)}` : Prisma.sql`false`;
  const rows = await sqlRows<{ session_id: string; place: "inside" | "outside" | null }>(Prisma.sql`
    select k.id::text as session_id,
           case when lo.occurred_at is null or ${before} or ${after} then 'outside'
                when ${inTime("lo", scope)} and ${inTime("hi", scope)} then 'inside' end as place
      from session k
      left join lateral (select s.occurred_at from span s where s.session_id = k.id and ${seen} order by s.occurred_at limit 1) lo on true
      left join lateral (select s.occurred_at from span s where s.session_id = k.id and ${seen} order by s.occurred_at desc limit 1) hi on true
     where k.id = any(${sessions.map((s) => s.id)}::uuid[])`);
  return new Map(rows.filter((r) => r.place !== null).map((r) => [r.session_id, r.place!]));
}

/**
 * The sessions in scope with at least one span (summaries included) in the question's time range,
 * every session with a span when it has none: what "checked in N sessions" counts, and the only
 * sessions a time-ranged question's candidates, blockers and summaries can come from. None: the
 * scope has no span at all, and never answers NO.
 */
export async function sessionsWithSpansIn(sessions: ScopeSessionRow[], scope: Scope): Promise<ScopeSessionRow[]> {
  const held = sessions.filter((s) => s.span_count > 0);
  if (!timed(scope) || held.length === 0) return held;
  // One probe per kind of span, each down an index by time (no index holds every span by time: a
  // single probe walked one of each session's spans in the range, ten times slower).
  const within = (kind: string) =>
    Prisma.sql`exists (select 1 from span s where s.session_id = t.id and ${Prisma.raw(kind)} and ${inTime("s", scope)})`;
  const rows = await sqlRows<{ id: string }>(Prisma.sql`
    select t.id::text as id from session t
     where t.id = any(${held.map((s) => s.id)}::uuid[])
       and (${within("s.kind <> 'SUMMARY' and s.seq is not null")} or ${within("s.kind = 'SUMMARY'")}
            or ${within("s.kind <> 'SUMMARY' and s.seq is null")})`);
  const inRange = new Set(rows.map((r) => r.id));
  return held.filter((s) => inRange.has(s.id));
}

/**
 * The records their imports skipped, in the engine's order (session, then line). Read afresh on
 * every ask (one primary-key range per session), not kept in stored verdicts.
 */
export async function skippedRecordsOf(sessions: ScopeSessionRow[]): Promise<SkippedRecordRef[]> {
  if (sessions.length === 0) return [];
  const rows = await sqlRows<{ session_id: string; line: number; reason: string }>(Prisma.sql`
    select session_id::text as session_id, line, reason from skipped_record
     where session_id = any(${sessions.map((s) => s.id)}::uuid[])`);
  const index = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .sort((a, b) => index.get(a.session_id)! - index.get(b.session_id)! || a.line - b.line)
    .map((r) => ({ sessionId: r.session_id, line: r.line, reason: r.reason }));
}
