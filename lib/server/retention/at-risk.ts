import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { spanAtRisk, sqlTime, ttlAheadSql } from "@/lib/server/provenance";

export interface AtRiskOriginal {
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  class: string;
  expiresAt: Date;
  horizonAt: Date;
  /** Size of the held original, so a bulk act can say how many bytes it keeps. */
  bytes: number;
}

/**
 * Held originals of evidence-bearing spans that will expire before their evidence horizon,
 * soonest first, in one project: what a retention owner should pin or extend before it is too late.
 * The rule is custodian_span_at_risk's (the session counters' too) over the span's copied facts,
 * with the clock's: the TTL is still ahead (EXPIRY_RULE). The scan runs over span_original's
 * (expires_at, pinned) index in expiry order, so the unpinned, not yet expired keys drive it.
 * Given `sessions`, only the spans of the sessions last active in that range: the overview's
 * "spans at risk ahead" for the same range (at-risk-ahead.ts) follows exactly these.
 */
export async function listAtRiskOriginals(
  projectId: string,
  limit = 200,
  now = new Date(),
  sessions: { since?: Date; until?: Date } = {},
): Promise<AtRiskOriginal[]> {
  // One evaluation of the project's horizon (an InitPlan), not one per span.
  const horizonDays = Prisma.sql`(select custodian_horizon_days(${projectId}::uuid))`;
  const active = [
    ...(sessions.since ? [Prisma.sql`and se.last_activity_at >= ${sessions.since}`] : []),
    ...(sessions.until ? [Prisma.sql`and se.last_activity_at < ${sessions.until}`] : []),
  ];
  const rows = await db().$queryRaw<
    Array<{
      session_id: string;
      title: string;
      span_id: string;
      seq: number | null;
      class: string;
      expires_at: Date;
      horizon_at: Date;
      bytes: number;
    }>
  >`
    select o.session_id::text as session_id, coalesce(se.title, se.external_id) as title, o.span_id::text as span_id,
           s.seq, s.class::text as class, o.expires_at, s.byte_length as bytes,
           s.occurred_at + make_interval(days => ${horizonDays}) as horizon_at
      from span_original o
      join span s on s.session_id = o.session_id and s.id = o.span_id
      join session se on se.id = o.session_id
     where se.project_id = ${projectId}::uuid ${active.length ? Prisma.join(active, " ") : Prisma.empty}
       and o.pinned = false and ${ttlAheadSql("o.expires_at", now)}
       and ${spanAtRisk("s", horizonDays)}
     order by o.expires_at
     limit ${limit}`;
  return rows.map((r) => ({
    sessionId: r.session_id,
    sessionTitle: r.title,
    spanId: r.span_id,
    seq: r.seq,
    class: r.class,
    expiresAt: r.expires_at,
    horizonAt: r.horizon_at,
    bytes: Number(r.bytes),
  }));
}

export interface ExpiryWeekCount {
  /** Monday of the ISO week, YYYY-MM-DD. */
  week: string;
  class: string;
  count: number;
}

/** Unpinned, held originals of evidence-bearing spans expiring in the coming weeks, counted per week and class. */
export async function expiriesByWeek(projectId: string, now: Date, weeks: number): Promise<ExpiryWeekCount[]> {
  const until = new Date(now.getTime() + weeks * 7 * 86_400_000);
  const rows = await db().$queryRaw<Array<{ week: string; class: string; count: bigint | number }>>`
    select to_char(date_trunc('week', o.expires_at), 'YYYY-MM-DD') as week, s.class::text as class, count(*) as count
      from span_original o join span s on s.session_id = o.session_id and s.id = o.span_id
      join session se on se.id = o.session_id
     where se.project_id = ${projectId}::uuid and ${ttlAheadSql("o.expires_at", now)} and o.expires_at <= ${sqlTime(until)}
       and o.pinned = false and o.bytes is not null and s.class <> 'NARRATIVE'
     group by 1, 2`;
  return rows.map((r) => ({ week: r.week, class: r.class, count: Number(r.count) }));
}
