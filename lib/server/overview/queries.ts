/**
 * The overview's figures, each one aggregate statement over an index that starts with the project
 * (or, for expiries, with the expiry time): nothing here reads spans into memory. Series come back
 * sparse, one row per bucket that has something; the chart's prepare step fills the empty ones.
 * The statements are built apart from running them so the database test can EXPLAIN each one.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { EvidentialClass } from "@/lib/evidence/types";
import { sqlTime, ttlAheadSql } from "@/lib/server/provenance";
import type { OverviewWindow } from "./range";

const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

export interface Scope {
  projectId: string;
  window: OverviewWindow;
}

/** A bucket as date_trunc's unit: a literal of the two the overview uses, never text from outside. */
export function bucketUnit(bucket: OverviewWindow["bucket"]): Prisma.Sql {
  return Prisma.raw(bucket === "hour" ? "'hour'" : "'day'");
}

/** The window as SQL: its bucket unit, first instant and last instant (the end of its days, or "now": nothing after it counts). */
function bounds({ window }: Scope) {
  return {
    unit: bucketUnit(window.bucket),
    from: sqlTime(new Date(window.from)),
    to: sqlTime(new Date(window.until ?? window.asOf)),
  };
}

/** Refusal events per bucket (index refusal_event (project_id, occurred_at)). */
export function refusalsSql(q: Scope): Prisma.Sql {
  const { unit, from, to } = bounds(q);
  return Prisma.sql`
    select date_trunc(${unit}, occurred_at) as at, count(*) as n
      from refusal_event
     where project_id = ${q.projectId}::uuid and occurred_at >= ${from} and occurred_at <= ${to}
     group by 1 order by 1`;
}

export async function refusalsPerBucket(q: Scope): Promise<Array<{ at: string; count: number }>> {
  const rows = await db().$queryRaw<Array<{ at: Date; n: bigint }>>(refusalsSql(q));
  return rows.map((r) => ({ at: r.at.toISOString(), count: n(r.n) }));
}

/**
 * Compactions per bucket, asked of the gate or not, with the spans they replaced (index compaction
 * (project_id, asked, occurred_at)).
 */
export function compactionsSql(q: Scope, asked: boolean): Prisma.Sql {
  const { unit, from, to } = bounds(q);
  return Prisma.sql`
    select date_trunc(${unit}, occurred_at) as at, count(*) as n, sum(replaced_count)::bigint as replaced
      from compaction
     where project_id = ${q.projectId}::uuid and asked = ${asked} and occurred_at >= ${from} and occurred_at <= ${to}
     group by 1 order by 1`;
}

/** Compactions done without asking the gate, per bucket; and how many asked in the window, so they read as a share. */
export async function unaskedCompactionsPerBucket(
  q: Scope,
): Promise<{ series: Array<{ at: string; count: number; spansReplaced: number }>; askedTotal: number }> {
  type Row = { at: Date; n: bigint; replaced: bigint | null };
  const [unasked, asked] = await Promise.all([
    db().$queryRaw<Row[]>(compactionsSql(q, false)),
    db().$queryRaw<Row[]>(compactionsSql(q, true)),
  ]);
  return {
    series: unasked.map((r) => ({ at: r.at.toISOString(), count: n(r.n), spansReplaced: n(r.replaced) })),
    askedTotal: asked.reduce((sum, r) => sum + n(r.n), 0),
  };
}

/**
 * Originals whose bytes were lost per bucket: deleted by the sweeper, or found damaged by its scrub.
 *
 * Why the audit log and not span_original.deleted_at: the sweeper does stamp deleted_at, but no
 * index reaches it by project and time (span_original is keyed by session and span), so counting
 * it would read every original of the project. The sweeper writes one audit row per original it
 * deletes ("original.sweep") or finds damaged ("original.hash_mismatch"), in the same transaction
 * and at the same instant as the deletion, and audit_log has an index on (project_id, act, at).
 * Nothing else deletes an original's bytes (the sweeper is the only writer of deleted_at).
 */
export function evidenceLostSql(q: Scope): Prisma.Sql {
  const { unit, from, to } = bounds(q);
  return Prisma.sql`
    select date_trunc(${unit}, at) as at,
           count(*) filter (where act = 'original.sweep') as deleted,
           count(*) filter (where act = 'original.hash_mismatch') as damaged
      from audit_log
     where project_id = ${q.projectId}::uuid and act in ('original.sweep', 'original.hash_mismatch')
       and at >= ${from} and at <= ${to}
     group by 1 order by 1`;
}

export async function evidenceLostPerBucket(q: Scope): Promise<Array<{ at: string; deleted: number; damaged: number }>> {
  const rows = await db().$queryRaw<Array<{ at: Date; deleted: bigint; damaged: bigint }>>(evidenceLostSql(q));
  return rows.map((r) => ({ at: r.at.toISOString(), deleted: n(r.deleted), damaged: n(r.damaged) }));
}

export interface ExpiryRow {
  at: string;
  class: EvidentialClass;
  originals: number;
  bytes: number;
}

/**
 * Held, unpinned originals whose TTL ends after `now` and before `until`, per UTC day and class,
 * with their bytes. The range scan runs on span_original (expires_at, pinned), the index the
 * sweeper uses; it holds every project's expiries, so a week's worth is read and the project
 * kept by the join to its sessions. "Held" is read from the span's copy of the original's state:
 * the same fact (a trigger keeps it), but a condition on span_original.bytes_state lets the planner
 * AND in the scrub's partial index over every held original (twice as slow at a million spans).
 */
export function expiriesSql(projectId: string, now: Date, until: Date): Prisma.Sql {
  return Prisma.sql`
    select date_trunc('day', o.expires_at) as at, s.class::text as class, count(*) as n, sum(s.byte_length)::bigint as bytes
      from span_original o
      join session se on se.id = o.session_id
      join span s on s.session_id = o.session_id and s.id = o.span_id
     where ${ttlAheadSql("o.expires_at", now)} and o.expires_at < ${sqlTime(until)} and o.pinned = false
       and s.original_state = 'HELD' and se.project_id = ${projectId}::uuid
     group by 1, 2 order by 1, 2`;
}

export async function expiriesPerDay(projectId: string, now: Date, until: Date): Promise<ExpiryRow[]> {
  const rows = await db().$queryRaw<Array<{ at: Date; class: EvidentialClass; n: bigint; bytes: bigint | null }>>(
    expiriesSql(projectId, now, until),
  );
  return rows.map((r) => ({ at: r.at.toISOString(), class: r.class, originals: n(r.n), bytes: n(r.bytes) }));
}

/** The overview's range statements by name, as they run (for EXPLAIN in the pages benchmark). */
export function overviewStatements(scope: Scope, now: Date, expiryEnd: Date): Record<string, Prisma.Sql> {
  return {
    refusals: refusalsSql(scope),
    "compactions without asking": compactionsSql(scope, false),
    "evidence lost": evidenceLostSql(scope),
    "expiring this week": expiriesSql(scope.projectId, now, expiryEnd),
  };
}
