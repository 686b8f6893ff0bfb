/**
 * The held originals of a project (read from the span rows' copied facts) for the what-if: what each
 * policy deletes per class and day, what is EXPIRING under each, the first deletions, and the
 * replaced spans that could move an evidence answer. Only aggregates and bounded lists come back.
 *
 * A policy moves every held expiry of a class by the same whole number of days, so the held rows
 * are read once (an index-only scan of span_held_idx) into counts per session, class, day of expiry
 * counted from now, and whether the span is EXPIRING under each policy; the day series of both
 * policies come from those few counts by moving the days. The first deletions and the replaced spans
 * due are read as ranges of the same index, one per session and class, up to the expiry the counts
 * (or the horizon) bound them by. Timestamps are literals (sqlTime): the columns hold UTC.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { DAY_MS } from "@/lib/evidence/policy";
import type { AtomKind, EvidentialClass, RetentionPolicy } from "@/lib/evidence/types";
import { sqlTime } from "@/lib/server/provenance";

/** A replaced span whose held original is due within the horizon under either policy. */
export interface Candidate {
  session_id: string;
  span_id: string;
  cls: EvidentialClass;
  honest: boolean;
  dropped: Array<{ kind: AtomKind; count: number }> | null;
  current_at: Date;
  proposed_at: Date;
}

export interface BucketRow {
  cls: string;
  day_current: number | null;
  day_proposed: number | null;
  by_current: number;
  by_proposed: number;
  n: number;
  bytes: number | null;
  sessions: number;
  expiring_current: number;
  expiring_proposed: number;
  expiring_sessions_current: number;
  expiring_sessions_proposed: number;
}

export interface DeletionRow {
  session_id: string;
  span_id: string;
  cls: string;
  bytes: number;
  at: string;
}

/** Replaced spans considered at most for the question step, soonest first. */
export const MAX_CANDIDATE_SPANS = 20_000;
/** Sessions whose answers are judged at most: those of the soonest replaced spans due. */
export const MAX_SESSIONS_JUDGED = 40;
export const MAX_DELETIONS_LISTED = 200;

type Shifts = Record<EvidentialClass, number>;

/** Days `policy` moves the held expiries of each class by, against `current` (saving a policy moves them so). */
function shifts(policy: RetentionPolicy, current: RetentionPolicy): Shifts {
  const d = (c: EvidentialClass) => policy.ttlDays[c] - current.ttlDays[c];
  return { NARRATIVE: d("NARRATIVE"), STRUCTURED: d("STRUCTURED"), SIDE_EFFECTING: d("SIDE_EFFECTING") };
}

/** A whole number of days as a literal interval, read once rather than built for every row. */
function days(n: number): Prisma.Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError("days must be a whole number");
  return Prisma.raw(`interval '${n} days'`);
}

/** One value per evidential class, chosen by span `s`'s class. */
function byClass(values: Record<EvidentialClass, Prisma.Sql>): Prisma.Sql {
  return Prisma.sql`(case s.class when 'NARRATIVE' then ${values.NARRATIVE} when 'STRUCTURED' then ${values.STRUCTURED}
      else ${values.SIDE_EFFECTING} end)`;
}

const perClass = (f: (c: EvidentialClass) => Prisma.Sql) =>
  byClass({ NARRATIVE: f("NARRATIVE"), STRUCTURED: f("STRUCTURED"), SIDE_EFFECTING: f("SIDE_EFFECTING") });

/**
 * The project's held spans of some classes whose expiry is set and before a bound per class: one
 * range of span_held_idx per session and class, so only those spans are read. Exposes `s` and `c`
 * (c.shift: the interval of extra columns given per class).
 */
function heldBefore(projectId: string, bounds: Array<{ cls: EvidentialClass; before: Date; shift: Prisma.Sql }>): Prisma.Sql {
  const rows = bounds.map((b) => Prisma.sql`(${b.cls}::"EvidentialClass", ${sqlTime(b.before)}, ${b.shift})`);
  return Prisma.sql`session se
      cross join (values ${Prisma.join(rows)}) as c(cls, before, shift)
      cross join lateral (
        select s.session_id, s.id, s.class, s.original_expires_at, s.byte_length, s.kind, s.has_pointer, s.transcript_state
          from span s
         where s.session_id = se.id and s.original_state = 'HELD' and s.class = c.cls
           and s.original_expires_at < c.before) s
     where se.project_id = ${projectId}::uuid`;
}

export async function scanHeld(projectId: string, current: RetentionPolicy, proposed: RetentionPolicy, now: Date, end: Date) {
  const horizonDays = Math.round((end.getTime() - now.getTime()) / DAY_MS);
  const buckets = (await one<BucketRow[]>(heldBucketsSql(projectId, current, proposed, now, horizonDays))) ?? [];
  const [deletionsCurrent, deletionsProposed, due] = await Promise.all([
    one<DeletionRow[]>(firstDeletionsSql(projectId, current, current, now, lastDayListed(buckets, "current", horizonDays))),
    one<DeletionRow[]>(firstDeletionsSql(projectId, proposed, current, now, lastDayListed(buckets, "proposed", horizonDays))),
    one<DueJson>(replacedDueSql(projectId, current, proposed, now, end)),
  ]);
  return {
    buckets,
    deletionsCurrent: deletionsCurrent ?? [],
    deletionsProposed: deletionsProposed ?? [],
    candidates: (due?.candidates ?? []).map((c) => ({
      ...c,
      current_at: new Date(c.current_at),
      proposed_at: new Date(c.proposed_at),
    })),
    /** More replaced spans, or more sessions, were due than the question step considers. */
    candidatesTruncated: (due?.spans ?? 0) > MAX_CANDIDATE_SPANS || (due?.sessions ?? 0) > MAX_SESSIONS_JUDGED,
  };
}

/** The scan's statements for a proposal, labelled, for EXPLAIN in the benchmark. */
export async function scanQueriesToExplain(
  projectId: string,
  current: RetentionPolicy,
  proposed: RetentionPolicy,
  now: Date,
  end: Date,
): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const horizonDays = Math.round((end.getTime() - now.getTime()) / DAY_MS);
  const buckets = heldBucketsSql(projectId, current, proposed, now, horizonDays);
  const lastDay = lastDayListed((await one<BucketRow[]>(buckets)) ?? [], "proposed", horizonDays);
  return [
    { label: "what-if: held originals by class and day of deletion", sql: buckets },
    { label: "what-if: first deletions (proposed)", sql: firstDeletionsSql(projectId, proposed, current, now, lastDay) },
    { label: "what-if: replaced spans due (question step)", sql: replacedDueSql(projectId, current, proposed, now, end) },
  ];
}

/**
 * Held originals by class (bytes, EXPIRING counts and sessions under each policy) and by class and
 * day of deletion under each policy (-1: not within the horizon). An expiry e falls on day
 * k = floor((e - now) / 1 day) (date_bin's day from now); moved by d whole days it is deleted on day
 * max(k + d, 0), within the horizon when k + d < horizonDays. It is EXPIRING under a policy when
 * e + d < occurred_at + the evidence horizon.
 */
export function heldBucketsSql(
  projectId: string,
  current: RetentionPolicy,
  proposed: RetentionPolicy,
  now: Date,
  horizonDays: number,
): Prisma.Sql {
  const [dc, dp] = [shifts(current, current), shifts(proposed, current)];
  const moved = (
    d: Shifts,
  ) => Prisma.sql`(case cls when 'NARRATIVE' then ${d.NARRATIVE}::int when 'STRUCTURED' then ${d.STRUCTURED}::int
      else ${d.SIDE_EFFECTING}::int end)`;
  const day = (d: Shifts) =>
    Prisma.sql`(case when k is null or k + ${moved(d)} >= ${horizonDays}::int then -1 else greatest(k + ${moved(d)}, 0) end)`;
  const expiring = (policy: RetentionPolicy, d: Shifts) =>
    Prisma.sql`coalesce(s.original_expires_at < s.occurred_at + ${perClass((c) => days(policy.evidenceHorizonDays - d[c]))}, false)`;
  return Prisma.sql`
    with held as (
      -- One session at a time: each session's few groups are hashed in little memory.
      select se.id as session_id, h.*
        from session se
        cross join lateral (
          select s.class::text as cls, date_bin('1 day', s.original_expires_at, ${sqlTime(now)}) as bin,
                 ${expiring(current, dc)} as expiring_current, ${expiring(proposed, dp)} as expiring_proposed,
                 count(*) as n, sum(s.byte_length) as bytes
            from span s
           where s.session_id = se.id and s.original_state = 'HELD'
           group by 1, 2, 3, 4) h
       where se.project_id = ${projectId}::uuid),
    days as (
      select session_id, cls, n, bytes, expiring_current, expiring_proposed, ${day(dc)} as day_current, ${day(dp)} as day_proposed
        from (select held.*, (extract(epoch from (bin - ${sqlTime(now)})) / 86400)::int as k from held) h)
    select coalesce(json_agg(b), '[]') as value from (
      select cls, day_current, day_proposed, grouping(day_current) as by_current, grouping(day_proposed) as by_proposed,
             sum(n) as n, sum(bytes) as bytes, count(distinct session_id) as sessions,
             coalesce(sum(n) filter (where expiring_current), 0) as expiring_current,
             coalesce(sum(n) filter (where expiring_proposed), 0) as expiring_proposed,
             count(distinct session_id) filter (where expiring_current) as expiring_sessions_current,
             count(distinct session_id) filter (where expiring_proposed) as expiring_sessions_proposed
        from days
       group by grouping sets ((cls), (cls, day_current), (cls, day_proposed))) b`;
}

/**
 * The last day the first MAX_DELETIONS_LISTED deletions under a policy fall on: deletions run in
 * day order, so those are all among the originals deleted up to that day.
 */
function lastDayListed(buckets: BucketRow[], which: "current" | "proposed", horizonDays: number): number {
  const perDay = new Map<number, number>();
  for (const b of buckets) {
    const [d, grouped] = which === "current" ? [b.day_current, b.by_current] : [b.day_proposed, b.by_proposed];
    if (d !== null && d >= 0 && Number(grouped) === 0) perDay.set(d, (perDay.get(d) ?? 0) + Number(b.n));
  }
  let listed = 0;
  for (const d of [...perDay.keys()].sort((a, b) => a - b)) {
    listed += perDay.get(d)!;
    if (listed >= MAX_DELETIONS_LISTED) return d;
  }
  return horizonDays - 1;
}

/** When the sweeper deletes the original: its moved expiry, or now when that has passed (as UTC). */
const deletedAt = (shift: Prisma.Sql, now: Date) =>
  Prisma.sql`(greatest(s.original_expires_at + ${shift}, ${sqlTime(now)}) at time zone 'UTC')`;

/** The first originals `policy` deletes, soonest first, among those deleted up to day `lastDay`. */
export function firstDeletionsSql(
  projectId: string,
  policy: RetentionPolicy,
  current: RetentionPolicy,
  now: Date,
  lastDay: number,
): Prisma.Sql {
  const d = shifts(policy, current);
  // Deleted by then: moved expiry (or now) before the end of day lastDay.
  const until = now.getTime() + (lastDay + 1) * DAY_MS;
  const bounds = (["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const).map((cls) => ({
    cls,
    before: new Date(until - d[cls] * DAY_MS),
    shift: days(d[cls]),
  }));
  return Prisma.sql`
    select coalesce(json_agg(d), '[]') as value from (
      select s.session_id::text as session_id, s.id::text as span_id, s.class::text as cls, s.byte_length as bytes,
             ${deletedAt(Prisma.sql`c.shift`, now)} as at
        from ${heldBefore(projectId, bounds)}
       order by at, s.id
       limit ${MAX_DELETIONS_LISTED}) d`;
}

type DueJson = {
  spans: number;
  sessions: number;
  candidates: Array<Omit<Candidate, "current_at" | "proposed_at"> & { current_at: string; proposed_at: string }>;
};

/**
 * Replaced spans (not summaries, not narrative, with a pointer) whose held original goes within the
 * horizon under either policy, soonest first: the spans that can move an evidence answer. Of the
 * first MAX_CANDIDATE_SPANS, those of the first MAX_SESSIONS_JUDGED sessions to appear come back
 * (with what a summary dropped of them), and how many spans (up to one more) and sessions there were.
 */
export function replacedDueSql(
  projectId: string,
  current: RetentionPolicy,
  proposed: RetentionPolicy,
  now: Date,
  end: Date,
): Prisma.Sql {
  const d = shifts(proposed, current);
  const bounds = (["STRUCTURED", "SIDE_EFFECTING"] as const).map((cls) => ({
    cls,
    before: new Date(end.getTime() - Math.min(0, d[cls]) * DAY_MS),
    shift: days(d[cls]),
  }));
  const soonest = Prisma.sql`least(${deletedAt(days(0), now)}, ${deletedAt(Prisma.sql`c.shift`, now)})`;
  return Prisma.sql`
    with due as (
      select s.session_id, s.id, s.class, s.transcript_state = 'RECLAIMED_HONEST' as honest, s.original_expires_at, c.shift,
             ${soonest} as soonest
        from ${heldBefore(projectId, bounds)}
         and s.kind <> 'SUMMARY' and s.has_pointer and s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST')
       order by soonest, s.id
       limit ${MAX_CANDIDATE_SPANS + 1}),
    numbered as (
      select s.session_id, s.id, s.class, s.honest, ${deletedAt(days(0), now)} as current_at,
             ${deletedAt(Prisma.sql`s.shift`, now)} as proposed_at, row_number() over (order by s.soonest, s.id) as rn
        from due s),
    firsts as (select session_id, min(rn) as first from numbered where rn <= ${MAX_CANDIDATE_SPANS} group by session_id),
    chosen as (select session_id from firsts order by first limit ${MAX_SESSIONS_JUDGED})
    select json_build_object(
      'spans', (select count(*) from numbered),
      'sessions', (select count(*) from firsts),
      'candidates', coalesce((
        select json_agg(json_build_object('session_id', n.session_id::text, 'span_id', n.id::text, 'cls', n.class::text,
                 'honest', n.honest, 'current_at', n.current_at, 'proposed_at', n.proposed_at,
                 -- What the honest summary dropped, read for those spans alone.
                 'dropped', case when n.honest then
                   (select r.replaced_dropped from span r where r.session_id = n.session_id and r.id = n.id) end)
                 order by n.rn)
          from numbered n join chosen using (session_id)
         where n.rn <= ${MAX_CANDIDATE_SPANS}), '[]')) as value`;
}

async function one<T>(sql: Prisma.Sql): Promise<T | undefined> {
  const [row] = await db().$queryRaw<Array<{ value: T }>>(sql);
  return row?.value;
}
