/**
 * One pass over a project's held originals (the span rows' copied facts) for the what-if: what
 * each policy deletes per class and day, what is EXPIRING under each, the first deletions, and the
 * replaced spans that could move an evidence answer. The rows are read once into a materialized
 * set in the database and aggregated there; only aggregates and bounded lists come back.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { AtomKind, EvidentialClass, RetentionPolicy } from "@/lib/evidence/types";
import { expiryUnder, horizonUnder } from "./policy-sql";

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

/** Spans read back at most for the question step, soonest first. */
export const MAX_CANDIDATE_SPANS = 20_000;
export const MAX_DELETIONS_LISTED = 200;

export async function scanHeld(projectId: string, current: RetentionPolicy, proposed: RetentionPolicy, now: Date, end: Date) {
  // An expiry already passed counts from now: the next sweep deletes it.
  const at = (policy: RetentionPolicy) =>
    Prisma.sql`(case when s.original_expires_at is null then null else greatest(${expiryUnder(policy, current)}, ${now}::timestamptz) end)`;
  const day = (column: Prisma.Sql) =>
    Prisma.sql`(case when ${column} is null or ${column} >= ${end} then -1 else floor(extract(epoch from (${column} - ${now}::timestamptz)) / 86400)::int end)`;
  const deletions = (column: Prisma.Sql) => Prisma.sql`(select coalesce(json_agg(d), '[]') from (
      select session_id::text as session_id, id::text as span_id, cls, byte_length as bytes, ${column} as at
        from held where ${column} < ${end} order by ${column}, id limit ${MAX_DELETIONS_LISTED}) d)`;
  const [row] = await db().$queryRaw<
    Array<{ buckets: BucketRow[]; deletions_current: DeletionRow[]; deletions_proposed: DeletionRow[]; candidates: Candidate[] }>
  >`
    with held as materialized (
      select s.session_id, s.id, s.class::text as cls, s.byte_length,
             ${at(current)} as current_at, ${at(proposed)} as proposed_at,
             coalesce(${expiryUnder(current, current)} < ${horizonUnder(current)}, false) as expiring_current,
             coalesce(${expiryUnder(proposed, current)} < ${horizonUnder(proposed)}, false) as expiring_proposed,
             s.kind <> 'SUMMARY' and s.class <> 'NARRATIVE' and s.has_pointer
               and s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') as replaced,
             s.transcript_state = 'RECLAIMED_HONEST' as honest,
             case when s.transcript_state = 'RECLAIMED_HONEST' then s.replaced_dropped end as dropped
        from span s join session se on se.id = s.session_id
       where se.project_id = ${projectId}::uuid and s.original_state = 'HELD'),
    days as (
      select session_id, cls, byte_length, expiring_current, expiring_proposed,
             ${day(Prisma.sql`current_at`)} as day_current, ${day(Prisma.sql`proposed_at`)} as day_proposed
        from held)
    select
      (select coalesce(json_agg(b), '[]') from (
        select cls, day_current, day_proposed, grouping(day_current) as by_current, grouping(day_proposed) as by_proposed,
               count(*) as n, sum(byte_length) as bytes, count(distinct session_id) as sessions,
               count(*) filter (where expiring_current) as expiring_current,
               count(*) filter (where expiring_proposed) as expiring_proposed,
               count(distinct session_id) filter (where expiring_current) as expiring_sessions_current,
               count(distinct session_id) filter (where expiring_proposed) as expiring_sessions_proposed
          from days
         group by grouping sets ((cls), (cls, day_current), (cls, day_proposed))) b) as buckets,
      ${deletions(Prisma.sql`current_at`)} as deletions_current,
      ${deletions(Prisma.sql`proposed_at`)} as deletions_proposed,
      (select coalesce(json_agg(c), '[]') from (
        select session_id::text as session_id, id::text as span_id, cls, honest, dropped, current_at, proposed_at
          from held
         where replaced and least(current_at, proposed_at) < ${end}
         order by least(current_at, proposed_at), id
         limit ${MAX_CANDIDATE_SPANS + 1}) c) as candidates`;
  return {
    buckets: row?.buckets ?? [],
    deletionsCurrent: row?.deletions_current ?? [],
    deletionsProposed: row?.deletions_proposed ?? [],
    candidates: (row?.candidates ?? []).map((c) => ({
      ...c,
      current_at: new Date(c.current_at),
      proposed_at: new Date(c.proposed_at),
    })),
  };
}
