/**
 * The held originals of a project (read from the span rows' copied facts) for the what-if: what each
 * policy deletes per class and day, what is EXPIRING under each, the first deletions, and the
 * replaced spans that could move an evidence answer. Only aggregates and bounded lists come back.
 *
 * A policy moves every held expiry of a class by the same whole number of days, so the held
 * originals are counted from trigger-kept counters (span_expiry_count: per session, class, hour of
 * expiry and slack) into counts per session, class, day of expiry counted from now, and whether the
 * span is EXPIRING under each policy; the day series of both policies come from those few counts by
 * moving the days. The first deletions and the replaced spans
 * due are read as ranges of the same index, one per session and class, up to the expiry the counts
 * (or the horizon) bound them by. Timestamps are literals (sqlTime): the columns hold UTC.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { DAY_MS } from "@/lib/evidence/policy";
import type { AtomKind, EvidentialClass, RetentionPolicy } from "@/lib/evidence/types";
import { slackBeforeHorizon, sqlTime } from "@/lib/server/provenance";

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
  /** Per class: held originals EXPIRING under the proposal and not under the current policy. */
  turned_proposed: number;
}

/** A session's spans of a class turning EXPIRING or LOST on a day under one of the policies. */
export interface SessionDayRow {
  which: "current" | "proposed";
  session_id: string;
  cls: string;
  day: number;
  turned: number;
  lost: number;
}

interface HeldJson {
  buckets: BucketRow[];
  sessions: SessionDayRow[];
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
/** Sessions' days (a session, a class, a day) listed at most per policy, soonest first. */
export const MAX_SESSION_DAYS_LISTED = 500;

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

export async function scanHeld(
  projectId: string,
  current: RetentionPolicy,
  proposed: RetentionPolicy,
  now: Date,
  end: Date,
  sessionDaysListed = MAX_SESSION_DAYS_LISTED,
) {
  const horizonDays = Math.round((end.getTime() - now.getTime()) / DAY_MS);
  const held = await one<HeldJson>(heldBucketsSql(projectId, current, proposed, now, horizonDays, sessionDaysListed));
  const buckets = held?.buckets ?? [];
  const sessions = held?.sessions ?? [];
  const [deletionsCurrent, deletionsProposed, due] = await Promise.all([
    one<DeletionRow[]>(firstDeletionsSql(projectId, current, current, now, lastDayListed(buckets, "current", horizonDays))),
    one<DeletionRow[]>(firstDeletionsSql(projectId, proposed, current, now, lastDayListed(buckets, "proposed", horizonDays))),
    one<DueJson>(replacedDueSql(projectId, current, proposed, now, end)),
  ]);
  const listedCurrent = sessions.filter((r) => r.which === "current");
  const listedProposed = sessions.filter((r) => r.which === "proposed");
  return {
    buckets,
    sessions: {
      current: listedCurrent.slice(0, sessionDaysListed),
      proposed: listedProposed.slice(0, sessionDaysListed),
      truncated: {
        current: listedCurrent.length > sessionDaysListed,
        proposed: listedProposed.length > sessionDaysListed,
      },
    },
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
  const lastDay = lastDayListed((await one<HeldJson>(buckets))?.buckets ?? [], "proposed", horizonDays);
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
 * e + d < occurred_at + the evidence horizon, i.e. when its slack (whole days from occurrence to
 * expiry) is below the horizon less d (slackBeforeHorizon, the at-risk rule in days).
 *
 * Read from span_expiry_count (held originals with an expiry by session, class, hour of expiry and
 * slack) rather than from every held span: every expiry of an hour falls on one day k, except in
 * the hour a day boundary (now + k + 1 days) cuts, whose originals before the boundary are counted
 * from span_held_idx (a range of it per such counter). Held bytes (pinned originals too) come from
 * span_storage_count.
 *
 * Beside the buckets, the sessions behind them: per policy, each session's spans of a class deleted
 * (turning LOST) on a day, and under the proposal those turning EXPIRING on day 0 (a saved policy
 * applies at once), soonest first, one more than the number listed to tell a cut list.
 */
export function heldBucketsSql(
  projectId: string,
  current: RetentionPolicy,
  proposed: RetentionPolicy,
  now: Date,
  horizonDays: number,
  sessionDaysListed = MAX_SESSION_DAYS_LISTED,
): Prisma.Sql {
  const [dc, dp] = [shifts(current, current), shifts(proposed, current)];
  const byCls = (v: Record<EvidentialClass, number>) =>
    Prisma.sql`(case cls when 'NARRATIVE' then ${v.NARRATIVE}::int when 'STRUCTURED' then ${v.STRUCTURED}::int
      else ${v.SIDE_EFFECTING}::int end)`;
  const day = (d: Shifts) =>
    Prisma.sql`(case when k + ${byCls(d)} >= ${horizonDays}::int then -1 else greatest(k + ${byCls(d)}, 0) end)`;
  const below = (policy: RetentionPolicy, d: Shifts) => ({
    NARRATIVE: policy.evidenceHorizonDays - d.NARRATIVE,
    STRUCTURED: policy.evidenceHorizonDays - d.STRUCTURED,
    SIDE_EFFECTING: policy.evidenceHorizonDays - d.SIDE_EFFECTING,
  });
  const t = sqlTime(now);
  const slack = Prisma.sql`slack_days`;
  // Each counter with its day and that day's boundary. Read twice, as a subquery, not a CTE: the
  // cut's lateral count over span then joins it on session_id, which Citus pushes down per session.
  const k = Prisma.sql`floor(extract(epoch from (c.expires_hour - ${t})) / 86400)::int`;
  const counted = Prisma.sql`select c.session_id, c.class, c.class::text as cls, c.expires_hour, c.slack_days, c.originals::bigint as n,
      c.bytes, ${k} as k, ${t} + make_interval(days => ${k} + 1) as boundary
      from span_expiry_count c join session se on se.id = c.session_id
     where se.project_id = ${projectId}::uuid and c.originals > 0`;
  return Prisma.sql`
    with keyed as (${counted}),
    cut as (
      -- The hours a day boundary cuts: the originals before it stay on day k.
      select keyed.*, b.n as n_before, b.bytes as bytes_before
        from (${counted}) keyed cross join lateral (
          select count(*) as n, coalesce(sum(s.byte_length), 0) as bytes
            from span s
           where s.session_id = keyed.session_id and s.original_state = 'HELD' and s.class = keyed.class
             and s.original_expires_at >= keyed.expires_hour and s.original_expires_at < keyed.boundary
             and custodian_slack_days(s.original_expires_at, s.occurred_at) = keyed.slack_days) b
       where keyed.boundary < keyed.expires_hour + interval '1 hour'),
    parts as (
      select session_id, cls, slack_days, k, n, bytes from keyed where boundary >= expires_hour + interval '1 hour'
      union all select session_id, cls, slack_days, k, n_before, bytes_before from cut
      union all select session_id, cls, slack_days, k + 1, n - n_before, bytes - bytes_before from cut),
    days as (
      select session_id, cls, n, bytes, ${slackBeforeHorizon(slack, byCls(below(current, dc)))} as expiring_current,
             ${slackBeforeHorizon(slack, byCls(below(proposed, dp)))} as expiring_proposed, ${day(dc)} as day_current, ${day(dp)} as day_proposed
        from parts where n > 0),
    grouped as (
      select cls, day_current, day_proposed, grouping(day_current) as by_current, grouping(day_proposed) as by_proposed,
             sum(n) as n, sum(bytes) as bytes, count(distinct session_id) as sessions,
             coalesce(sum(n) filter (where expiring_current), 0) as expiring_current,
             coalesce(sum(n) filter (where expiring_proposed), 0) as expiring_proposed,
             count(distinct session_id) filter (where expiring_current) as expiring_sessions_current,
             count(distinct session_id) filter (where expiring_proposed) as expiring_sessions_proposed,
             coalesce(sum(n) filter (where expiring_proposed and not expiring_current), 0) as turned_proposed
        from days
       group by grouping sets ((cls), (cls, day_current), (cls, day_proposed))),
    per_session as (
      select 'current' as which, session_id, cls, day_current as day, 0::numeric as turned, sum(n) as lost
        from days where day_current >= 0 group by session_id, cls, day_current
      union all
      select 'proposed', session_id, cls, day_proposed, 0, sum(n) from days where day_proposed >= 0 group by session_id, cls, day_proposed
      union all
      select 'proposed', session_id, cls, 0, sum(n), 0 from days where expiring_proposed and not expiring_current
       group by session_id, cls),
    session_days as (
      select which, session_id::text as session_id, cls, day, sum(turned) as turned, sum(lost) as lost,
             row_number() over (partition by which order by day, session_id, cls) as rn
        from per_session group by which, session_id, cls, day),
    held as (
      select c.class::text as cls, sum(c.bytes) as bytes
        from span_storage_count c join session se on se.id = c.session_id
       where se.project_id = ${projectId}::uuid and c.originals > 0
       group by 1)
    select json_build_object(
      'buckets', (select coalesce(json_agg(b), '[]') from (
        select cls, day_current, day_proposed, by_current, by_proposed, n, bytes, sessions, expiring_current, expiring_proposed,
               expiring_sessions_current, expiring_sessions_proposed, 0 as turned_proposed
          from grouped where by_current = 0 or by_proposed = 0
        union all
        -- Per class: every held original's bytes, pinned ones too.
        select held.cls, null, null, 1, 1, null, held.bytes, null, coalesce(g.expiring_current, 0), coalesce(g.expiring_proposed, 0),
               coalesce(g.expiring_sessions_current, 0), coalesce(g.expiring_sessions_proposed, 0), coalesce(g.turned_proposed, 0)
          from held left join grouped g on g.cls = held.cls and g.by_current = 1 and g.by_proposed = 1) b),
      'sessions', (select coalesce(json_agg(json_build_object('which', which, 'session_id', session_id, 'cls', cls, 'day', day,
                     'turned', turned, 'lost', lost) order by which, rn), '[]')
          from session_days where rn <= ${sessionDaysListed + 1}::int)) as value`;
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
                 -- What the honest summary dropped, read for those spans alone (by a join on the
                 -- span's key: Citus plans no subquery per row over a CTE).
                 'dropped', case when n.honest then r.replaced_dropped end)
                 order by n.rn)
          from numbered n join chosen using (session_id) join span r on r.session_id = n.session_id and r.id = n.id
         where n.rn <= ${MAX_CANDIDATE_SPANS}), '[]')) as value`;
}

async function one<T>(sql: Prisma.Sql): Promise<T | undefined> {
  const [row] = await db().$queryRaw<Array<{ value: T }>>(sql);
  return row?.value;
}
