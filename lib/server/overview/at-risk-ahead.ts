/**
 * Spans at risk over time, as far as stored data can tell it honestly: ahead, not behind. A span
 * is at risk while its held, unpinned original expires before the span's evidence horizon; pins,
 * extensions and policy changes rewrite those expiries in place and no history of the count is
 * kept, so yesterday's figure cannot be read back. What the stored expiries do say exactly is the
 * future if nobody acts: at each bucket ahead, how many of today's spans at risk will have lost
 * their original (the sweeper deletes it at its expiry) and how many will still be held.
 *
 * A range looks back while this chart looks ahead, so the range picks whose spans it follows, not
 * when: the spans of the sessions active in the range (last activity within it, the sessions
 * list's condition, as the "at risk now" figure beside it counts), projected ahead from now. The
 * retention page's list of originals at risk, given the same range, lists exactly these spans.
 * Originals whose TTL has already passed are lost now (the list and the grid show them so), not
 * held: the next sweep deletes them.
 *
 * Read from span_expiry_count, the trigger-kept count of held originals by session, class, hour
 * of expiry and slack (whole days from occurrence to expiry), a few rows per session: a span is
 * at risk exactly when its class is not NARRATIVE and its slack is under the horizon in days
 * (slackBeforeHorizon: expiry < occurred + h days, h whole, is floor((expiry - occurred) / 1 day) < h). Originals
 * found damaged are not held and are left out (the "at risk now" figure counts them).
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { slackBeforeHorizon, spanAtRisk, sqlTime, ttlPassedSql } from "@/lib/server/provenance";
import { bucketUnit } from "./queries";
import { DAY_MS, HOUR_MS, type OverviewWindow } from "./range";

export interface AtRiskAhead {
  /** The buckets ahead: the first holds now, as many as the range has behind. */
  window: { bucket: "hour" | "day"; from: string; buckets: number };
  /** Spans at risk whose original is held now. */
  held: number;
  /** Sparse, oldest first: how many of them reach their expiry in each bucket. */
  series: Array<{ at: string; expiring: number }>;
  /** The hour the first of them expires (ahead or beyond the window); null when none is held. */
  firstExpiry: string | null;
}

/** The same number of buckets as the range looks back over, starting with the one holding now. */
export function aheadWindow(window: OverviewWindow): AtRiskAhead["window"] {
  const step = window.bucket === "hour" ? HOUR_MS : DAY_MS;
  const now = Date.parse(window.asOf);
  return { bucket: window.bucket, from: new Date(now - (now % step)).toISOString(), buckets: window.buckets };
}

/** Whose spans the projection follows: the sessions last active in [since, until), either end open. */
export interface AheadSessions {
  since?: Date;
  until?: Date;
}

/**
 * Per bucket ahead (null: after the window), the held originals at risk of the sessions active in
 * the range, expiring then. The kept counters hold expiries by the hour; within the hour holding
 * `now`, the originals already past their TTL are taken back out, read from the spans by
 * span_held_expiry_idx (an hour of one session's expiries at most).
 */
export function atRiskAheadSql(projectId: string, ahead: AtRiskAhead["window"], sessions: AheadSessions, now: Date): Prisma.Sql {
  const step = ahead.bucket === "hour" ? HOUR_MS : DAY_MS;
  const unit = bucketUnit(ahead.bucket);
  const from = sqlTime(new Date(ahead.from));
  const end = sqlTime(new Date(Date.parse(ahead.from) + ahead.buckets * step));
  const thisHour = sqlTime(new Date(now.getTime() - (now.getTime() % HOUR_MS)));
  const horizonDays = Prisma.sql`(select custodian_horizon_days(${projectId}::uuid))`;
  const active = [Prisma.sql`se.project_id = ${projectId}::uuid`];
  if (sessions.since) active.push(Prisma.sql`se.last_activity_at >= ${sessions.since}`);
  if (sessions.until) active.push(Prisma.sql`se.last_activity_at < ${sessions.until}`);
  return Prisma.sql`
    with scope as (select se.id from session se where ${Prisma.join(active, " and ")}),
    expiring as (
      select c.expires_hour as hour, sum(c.originals)::bigint as n
        from scope join span_expiry_count c on c.session_id = scope.id
       where c.class <> 'NARRATIVE' and c.originals > 0 and c.expires_hour >= ${thisHour}
         and ${slackBeforeHorizon(Prisma.sql`c.slack_days`, horizonDays)}
       group by 1
      union all
      select ${thisHour}, -count(*)
        from scope join span s on s.session_id = scope.id
       where s.original_state = 'HELD' and s.original_expires_at >= ${thisHour}
         and ${ttlPassedSql("s.original_expires_at", now)} and ${spanAtRisk("s", horizonDays)}
      having count(*) > 0
    ),
    -- Each hour net of its originals already past: an hour left with none is no one's first expiry.
    hours as (select e.hour, sum(e.n) as n from expiring e group by 1 having sum(e.n) <> 0)
    select case when hour < ${end} then greatest(date_trunc(${unit}, hour), ${from}) end as at, sum(n)::bigint as n,
           min(hour) filter (where n > 0) as first_hour
      from hours
     group by 1 having sum(n) <> 0 order by 1 nulls last`;
}

export async function atRiskAhead(projectId: string, window: OverviewWindow, sessions: AheadSessions): Promise<AtRiskAhead> {
  const ahead = aheadWindow(window);
  const rows = await db().$queryRaw<Array<{ at: Date | null; n: bigint; first_hour: Date }>>(
    atRiskAheadSql(projectId, ahead, sessions, new Date(window.asOf)),
  );
  return {
    window: ahead,
    held: rows.reduce((sum, r) => sum + Number(r.n), 0),
    series: rows.flatMap((r) => (r.at ? [{ at: r.at.toISOString(), expiring: Number(r.n) }] : [])),
    // Rows come oldest first, the one beyond the window last: the first row with spans holds the first expiry.
    firstExpiry: rows.find((r) => Number(r.n) > 0)?.first_hour.toISOString() ?? null,
  };
}
