/**
 * Spans at risk over time, as far as stored data can tell it honestly: ahead, not behind. A span
 * is at risk while its held, unpinned original expires before the span's evidence horizon; pins,
 * extensions and policy changes rewrite those expiries in place and no history of the count is
 * kept, so yesterday's figure cannot be read back. What the stored expiries do say exactly is the
 * future if nobody acts: at each bucket ahead, how many of today's spans at risk will have lost
 * their original (the sweeper deletes it at its expiry) and how many will still be held.
 *
 * Read from span_expiry_count, the trigger-kept count of held originals by session, class, hour
 * of expiry and slack (whole days from occurrence to expiry), a few rows per session: a span is
 * at risk exactly when its class is not NARRATIVE and its slack is under the horizon in days
 * (slackBeforeHorizon: expiry < occurred + h days, h whole, is floor((expiry - occurred) / 1 day) < h). Originals
 * found damaged are not held and are left out (the "at risk now" figure counts them).
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { slackBeforeHorizon, sqlTime } from "@/lib/server/provenance";
import { bucketUnit } from "./queries";
import { DAY_MS, HOUR_MS, type OverviewWindow } from "./range";

export interface AtRiskAhead {
  /** The buckets ahead: the first holds now, as many as the range has behind. */
  window: { bucket: "hour" | "day"; from: string; buckets: number };
  /** Spans at risk whose original is held now. */
  held: number;
  /** Sparse, oldest first: how many of them reach their expiry in each bucket (any already past it, in the first). */
  series: Array<{ at: string; expiring: number }>;
}

/** The same number of buckets as the range looks back over, starting with the one holding now. */
export function aheadWindow(window: OverviewWindow): AtRiskAhead["window"] {
  const step = window.bucket === "hour" ? HOUR_MS : DAY_MS;
  const now = Date.parse(window.asOf);
  return { bucket: window.bucket, from: new Date(now - (now % step)).toISOString(), buckets: window.buckets };
}

/** Per bucket ahead (null: after the window), the project's held originals at risk, expiring then. */
export function atRiskAheadSql(projectId: string, ahead: AtRiskAhead["window"]): Prisma.Sql {
  const step = ahead.bucket === "hour" ? HOUR_MS : DAY_MS;
  const unit = bucketUnit(ahead.bucket);
  const from = sqlTime(new Date(ahead.from));
  const end = sqlTime(new Date(Date.parse(ahead.from) + ahead.buckets * step));
  return Prisma.sql`
    select case when c.expires_hour < ${end} then greatest(date_trunc(${unit}, c.expires_hour), ${from}) end as at,
           sum(c.originals)::bigint as n
      from session se
      join span_expiry_count c on c.session_id = se.id
     where se.project_id = ${projectId}::uuid and c.class <> 'NARRATIVE' and c.originals > 0
       and ${slackBeforeHorizon(Prisma.sql`c.slack_days`, Prisma.sql`custodian_horizon_days(${projectId}::uuid)`)}
     group by 1 order by 1 nulls last`;
}

export async function atRiskAhead(projectId: string, window: OverviewWindow): Promise<AtRiskAhead> {
  const ahead = aheadWindow(window);
  const rows = await db().$queryRaw<Array<{ at: Date | null; n: bigint }>>(atRiskAheadSql(projectId, ahead));
  return {
    window: ahead,
    held: rows.reduce((sum, r) => sum + Number(r.n), 0),
    series: rows.flatMap((r) => (r.at ? [{ at: r.at.toISOString(), expiring: Number(r.n) }] : [])),
  };
}
