/**
 * Every derived value of prisma/DERIVED_STATE.md recomputed from its source rows, in plain SQL
 * written without the triggers' functions (custodian_span_at_risk, custodian_grid_code, ...): each
 * returns the values that differ, as readable lines, so a drift names its column and row.
 *
 * Source rows: span (its own columns, not those copied onto it), span_original (bytes hashed live),
 * summary_link, refusal_event, compaction, retention_policy, session.cwd, skipped_record.
 */
import type { DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { ProvenanceStatus, RetentionPolicy } from "@/lib/evidence/types";
import { sessionGrid } from "@/lib/server/provenance";
import { SEARCH_SOURCES } from "@/lib/server/search";

const NIL = "00000000-0000-0000-0000-000000000000";

/**
 * Each span of the project with its original's facts from span_original alone: the state its bytes
 * are in now (hashed here) and when they stop being retrievable (null when pinned, deleted or absent).
 */
const facts = (projectId: string) => Prisma.sql`
  facts as (
    select s.session_id, s.id, s.seq, s.kind, s.class, s.occurred_at, s.transcript_state, s.has_pointer,
           s.generation, s.original_state, s.original_expires_at, s.replacing_summary_id, s.replaced_dropped,
           s.byte_length, date_trunc('day', s.created_at)::date as received_day, s.unknown_call,
           exists (select 1 from evidence_atom a where a.session_id = s.session_id and a.span_id = s.id
                    and a.effect = 'UNKNOWN_TOOL' and not a.negated) as live_unknown_call,
           case when x.span_id is null then 'ABSENT'
                when x.bytes is null then 'DELETED'
                when encode(sha256(x.bytes), 'hex') <> s.sha256 then 'HASH_MISMATCH'
                else 'HELD' end as live_state,
           case when x.span_id is null or x.bytes is null or x.pinned then null else x.expires_at end as live_expires,
           l.summary_span_id as link_summary, l.dropped as link_dropped,
           coalesce((select p.evidence_horizon_days from retention_policy p where p.project_id = se.project_id),
                    ${DEFAULT_POLICY.evidenceHorizonDays}::int) as horizon_days
      from span s
      join session se on se.id = s.session_id
      left join span_original x on x.session_id = s.session_id and x.span_id = s.id
      left join summary_link l on l.session_id = s.session_id and l.replaced_span_id = s.id
     where se.project_id = ${projectId}::uuid)`;

type Row = { what: string; key: string; stored: unknown; expected: unknown };

const lines = (rows: Row[]) =>
  rows.map((r) => `${r.what} of ${r.key}: stored ${JSON.stringify(r.stored)}, recounted ${JSON.stringify(r.expected)}`);

/** session's counters against a recount of its spans, originals, refusals and compactions. */
export async function sessionCountDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with ${facts(projectId)},
    expected as (
      select se.id,
             jsonb_build_object(
               'span_count', (select count(*) from facts f where f.session_id = se.id),
               'non_summary_count', (select count(*) from facts f where f.session_id = se.id and f.kind <> 'SUMMARY' and f.seq is not null),
               'seq_count', (select count(*) from facts f where f.session_id = se.id and f.seq is not null),
               'seq_min', (select min(f.seq) from facts f where f.session_id = se.id),
               'seq_max', (select max(f.seq) from facts f where f.session_id = se.id),
               'refusal_count', (select count(*) from refusal_event r where r.session_id = se.id),
               'at_risk_count', (select count(*) from facts f where f.session_id = se.id
                                  and f.live_state in ('HELD', 'HASH_MISMATCH') and f.class <> 'NARRATIVE'
                                  and f.live_expires < f.occurred_at + f.horizon_days * interval '1 day'),
               'lost_count', (select count(*) from facts f where f.session_id = se.id and f.live_state = 'DELETED'),
               'unchecked_count', (select count(*) from facts f where f.session_id = se.id
                                    and f.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') and f.kind <> 'SUMMARY'
                                    and f.seq is not null and (not f.has_pointer or f.live_state <> 'HELD')),
               'unasked_compaction_count', (select count(*) from compaction c where c.session_id = se.id and not c.asked)) as v
        from session se where se.project_id = ${projectId}::uuid),
    stored as (
      select se.id,
             jsonb_build_object('span_count', se.span_count, 'non_summary_count', se.non_summary_count,
               'seq_count', se.seq_count, 'seq_min', se.seq_min, 'seq_max', se.seq_max, 'refusal_count', se.refusal_count,
               'at_risk_count', se.at_risk_count, 'lost_count', se.lost_count, 'unchecked_count', se.unchecked_count,
               'unasked_compaction_count', se.unasked_compaction_count) as v
        from session se where se.project_id = ${projectId}::uuid)
    select 'session.' || k as what, e.id::text as key, s.v -> k as stored, e.v -> k as expected
      from expected e join stored s on s.id = e.id, jsonb_object_keys(e.v) k
     where (e.v -> k) is distinct from (s.v -> k)
     order by 1, 2`;
  return lines(rows);
}

/** The facts copied onto span from span_original, summary_link and evidence_atom, and span_original's verification. */
export async function spanFactDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with ${facts(projectId)}
    select 'span.original_state' as what, f.id::text as key, to_jsonb(f.original_state::text) as stored, to_jsonb(f.live_state) as expected
      from facts f where f.original_state::text <> f.live_state
    union all
    select 'span.original_expires_at', f.id::text, to_jsonb(f.original_expires_at), to_jsonb(f.live_expires)
      from facts f where f.original_expires_at is distinct from f.live_expires
    union all
    select 'span.replacing_summary_id', f.id::text, to_jsonb(f.replacing_summary_id), to_jsonb(f.link_summary)
      from facts f where f.replacing_summary_id is distinct from f.link_summary
    union all
    select 'span.replaced_dropped', f.id::text, f.replaced_dropped, f.link_dropped
      from facts f where f.replaced_dropped is distinct from f.link_dropped
    union all
    select 'span.unknown_call', f.id::text, to_jsonb(f.unknown_call), to_jsonb(f.live_unknown_call)
      from facts f where f.unknown_call <> f.live_unknown_call
    union all
    select 'span_original.bytes_state', f.id::text, to_jsonb(x.bytes_state::text), to_jsonb(f.live_state)
      from facts f join span_original x on x.session_id = f.session_id and x.span_id = f.id
     where x.bytes_state::text <> f.live_state or x.verified_at is null
    order by 1, 2`;
  return lines(rows);
}

/**
 * span_grid_count against the spans (not summaries) counted by class, replacing summary and
 * clock-free status: 0 NONE (no pointer), 1 LOST (original not held), 4 DURABLE (no expiry: pinned
 * or without TTL), 2 EXPIRING or 3 DURABLE by whether the TTL ends before the horizon.
 */
export async function gridCounterDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with ${facts(projectId)},
    expected as (
      select f.session_id, f.class, coalesce(f.link_summary, ${NIL}::uuid) as replacing,
             case when not f.has_pointer then 0
                  when f.live_state <> 'HELD' then 1
                  when f.live_expires is null then 4
                  when f.live_expires < f.occurred_at + f.horizon_days * interval '1 day' then 2
                  else 3 end as code,
             count(*)::int as n
        from facts f where f.kind <> 'SUMMARY'
       group by 1, 2, 3, 4),
    stored as (
      select g.session_id, g.class, g.replacing_summary_id as replacing, g.code::int as code, g.n
        from span_grid_count g join session se on se.id = g.session_id
       where se.project_id = ${projectId}::uuid and g.n <> 0)
    select 'span_grid_count.n' as what,
           concat_ws('/', coalesce(e.session_id, s.session_id), coalesce(e.class, s.class), coalesce(e.replacing, s.replacing),
                     coalesce(e.code, s.code)) as key,
           to_jsonb(s.n) as stored, to_jsonb(e.n) as expected
      from expected e full join stored s
        on s.session_id = e.session_id and s.class = e.class and s.replacing = e.replacing and s.code = e.code
     where e.n is distinct from s.n or s.n < 0
     order by 2`;
  return lines(rows);
}

/**
 * span_storage_count against the spans whose original holds bytes that hash right (hashed here),
 * counted with their byte_length by class and the UTC day they were received.
 */
export async function storageCounterDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with ${facts(projectId)},
    expected as (
      select f.session_id, f.class, f.received_day as day, count(*)::int as originals, sum(f.byte_length)::bigint as bytes
        from facts f where f.live_state = 'HELD'
       group by 1, 2, 3),
    stored as (
      select c.session_id, c.class, c.day, c.originals, c.bytes
        from span_storage_count c join session se on se.id = c.session_id
       where se.project_id = ${projectId}::uuid and (c.originals <> 0 or c.bytes <> 0))
    select 'span_storage_count' as what,
           concat_ws('/', coalesce(e.session_id, s.session_id), coalesce(e.class, s.class), coalesce(e.day, s.day)) as key,
           jsonb_build_object('originals', s.originals, 'bytes', s.bytes) as stored,
           jsonb_build_object('originals', e.originals, 'bytes', e.bytes) as expected
      from expected e full join stored s on s.session_id = e.session_id and s.class = e.class and s.day = e.day
     where e.originals is distinct from s.originals or e.bytes is distinct from s.bytes or s.originals < 0 or s.bytes < 0
     order by 2`;
  return lines(rows);
}

/**
 * span_expiry_count against the spans whose original holds bytes that hash right and has an expiry,
 * counted with their byte_length by class, UTC hour of expiry and whole days from occurrence to
 * expiry (the calendar days between them, one fewer when the expiry's time of day is earlier).
 */
export async function expiryCounterDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with ${facts(projectId)},
    expected as (
      select f.session_id, f.class, date_trunc('hour', f.live_expires) as expires_hour,
             (f.live_expires::date - f.occurred_at::date) - (f.live_expires::time < f.occurred_at::time)::int as slack_days,
             count(*)::int as originals, sum(f.byte_length)::bigint as bytes
        from facts f where f.live_state = 'HELD' and f.live_expires is not null
       group by 1, 2, 3, 4),
    stored as (
      select c.session_id, c.class, c.expires_hour, c.slack_days, c.originals, c.bytes
        from span_expiry_count c join session se on se.id = c.session_id
       where se.project_id = ${projectId}::uuid and (c.originals <> 0 or c.bytes <> 0))
    select 'span_expiry_count' as what,
           concat_ws('/', coalesce(e.session_id, s.session_id), coalesce(e.class, s.class), coalesce(e.expires_hour, s.expires_hour),
                     coalesce(e.slack_days, s.slack_days)) as key,
           jsonb_build_object('originals', s.originals, 'bytes', s.bytes) as stored,
           jsonb_build_object('originals', e.originals, 'bytes', e.bytes) as expected
      from expected e full join stored s
        on s.session_id = e.session_id and s.class = e.class and s.expires_hour = e.expires_hour and s.slack_days = e.slack_days
     where e.originals is distinct from s.originals or e.bytes is distinct from s.bytes or s.originals < 0 or s.bytes < 0
     order by 2`;
  return lines(rows);
}

/**
 * Written by the gate rather than by a trigger: a summary that replaced spans is one generation
 * above the deepest of them, and of a class no lower than theirs. The replaced spans are aggregated
 * in a subquery grouped by session: a Citus cluster then aggregates each group on its shard (it has
 * no combining max of an enum), and a HAVING over a second alias of span is not in play (Citus 13.2
 * wrote `max(r.generation)` there as `max(m.generation)` when it pushed the HAVING down).
 */
export async function summaryLineageDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    select 'span.generation' as what, m.id::text as key, to_jsonb(m.generation) as stored, to_jsonb(1 + r.generation) as expected
      from span m join session se on se.id = m.session_id
      join (select l.session_id, l.summary_span_id, max(r.generation) as generation, max(r.class) as class
              from summary_link l join span r on r.session_id = l.session_id and r.id = l.replaced_span_id
             group by l.session_id, l.summary_span_id) r on r.session_id = m.session_id and r.summary_span_id = m.id
     where se.project_id = ${projectId}::uuid
       and (m.generation <> 1 + r.generation or m.class < r.class)
     order by 2`;
  return lines(rows);
}

/**
 * What search reads (span_search, and the originals waiting for its indexer) against the originals:
 * one row for each that holds bytes, one marked kept for each the sweeper deleted that keeps
 * something of its span (custodian_kept_text), none for any other, none twice, with its span's
 * project and time (the text itself is the projection functions', tested on their own). The union's
 * legs lead with session_id: a Citus cluster pushes a union down only with the distribution column
 * in the same place in each leg. What is kept of a swept span is read from the originals first
 * gathered (materialized): on a cluster custodian_kept_text runs on the coordinator, as it reads
 * distributed tables itself.
 */
export async function searchIndexDrift(tx: DbTx, projectId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<Row[]>`
    with originals as materialized (
      select o.session_id, o.span_id, se.project_id, s.occurred_at, o.bytes is null as kept
        from span_original o join span s on s.session_id = o.session_id and s.id = o.span_id
        join session se on se.id = o.session_id
       where se.project_id = ${projectId}::uuid and (o.bytes is not null or o.deleted_at is not null)),
    expected as (
      select * from originals where not kept or custodian_kept_text(session_id, span_id) is not null),
    stored as (
      select x.session_id, x.span_id, x.project_id, x.occurred_at, x.kept
        from (select i.session_id, i.project_id, i.span_id, i.occurred_at, i.kept from ${SEARCH_SOURCES.indexed} i
              union all select p.session_id, p.project_id, p.span_id, p.occurred_at, p.kept from ${SEARCH_SOURCES.pending} p) x
       where x.project_id = ${projectId}::uuid
          or x.session_id in (select id from session where project_id = ${projectId}::uuid)
      union all
      -- A span both indexed and pending would be found twice: each such row is a drift.
      select p.session_id, p.span_id, null, null, null from span_search_pending p join span_search x using (session_id, span_id)
       where p.session_id in (select id from session where project_id = ${projectId}::uuid))
    select 'span_search' as what, concat_ws('/', coalesce(e.session_id, s.session_id), coalesce(e.span_id, s.span_id)) as key,
           jsonb_build_object('project', s.project_id, 'occurredAt', s.occurred_at, 'kept', s.kept) as stored,
           jsonb_build_object('project', e.project_id, 'occurredAt', e.occurred_at, 'kept', e.kept) as expected
      from expected e full join stored s on s.session_id = e.session_id and s.span_id = e.span_id
     where e.project_id is distinct from s.project_id or e.occurred_at is distinct from s.occurred_at
        or e.kept is distinct from s.kept
     order by 2`;
  return lines(rows);
}

/** All of the clock-free derived state of a project that differs from a recount. */
export async function driftOf(tx: DbTx, projectId: string): Promise<string[]> {
  return [
    ...(await sessionCountDrift(tx, projectId)),
    ...(await spanFactDrift(tx, projectId)),
    ...(await gridCounterDrift(tx, projectId)),
    ...(await storageCounterDrift(tx, projectId)),
    ...(await expiryCounterDrift(tx, projectId)),
    ...(await summaryLineageDrift(tx, projectId)),
    ...(await searchIndexDrift(tx, projectId)),
  ];
}

const STATUS_ORDER: ProvenanceStatus[] = ["NONE", "LOST", "EXPIRING", "DURABLE"];

/**
 * The grid at a clock as the dashboard reads it (counters plus spans past their TTL since), against
 * each span's status from its source rows at that clock: spans in SQL by the rules of docs/design.md's
 * vocabulary, summaries by the weakest status of the spans below them.
 */
export async function gridAtClockDrift(tx: DbTx, projectId: string, policy: RetentionPolicy, now: Date): Promise<string[]> {
  const at = now.toISOString();
  const spans = await tx.$queryRaw<
    Array<{
      session_id: string;
      id: string;
      kind: "SUMMARY" | "MESSAGE";
      class: string;
      status: ProvenanceStatus;
      occurred_at: Date;
    }>
  >`
    with ${facts(projectId)}
    select f.session_id::text as session_id, f.id::text as id, f.kind::text as kind, f.class::text as class, f.occurred_at,
           case when not f.has_pointer then 'NONE'
                when f.live_state <> 'HELD' then 'LOST'
                when f.live_expires is not null and f.live_expires <= ${at}::timestamp(3) then 'LOST'
                when f.live_expires is null or f.live_expires >= f.occurred_at + ${policy.evidenceHorizonDays}::int * interval '1 day' then 'DURABLE'
                else 'EXPIRING' end as status
      from facts f`;
  const links = await tx.$queryRaw<Array<{ session_id: string; summary: string; replaced: string; pointed: boolean }>>`
    select l.session_id::text as session_id, l.summary_span_id::text as summary, l.replaced_span_id::text as replaced,
           l.pointer_sha256 is not null as pointed
      from summary_link l join session se on se.id = l.session_id where se.project_id = ${projectId}::uuid`;
  const sessions = [...new Set(spans.map((s) => s.session_id))].sort();
  const out: string[] = [];
  for (const sessionId of sessions) {
    const mine = spans.filter((s) => s.session_id === sessionId);
    const own = new Map(mine.map((s) => [s.id, s]));
    const parents = new Map<string, typeof links>();
    for (const l of links.filter((x) => x.session_id === sessionId))
      parents.set(l.summary, [...(parents.get(l.summary) ?? []), l]);
    // A summary is as weak as its weakest root; NONE without links, over a link without a pointer, or on a cycle.
    const summaryStatus = (id: string, visiting: Set<string>): ProvenanceStatus => {
      const up = parents.get(id) ?? [];
      if (up.length === 0 || visiting.has(id)) return "NONE";
      visiting.add(id);
      const parts = up.map((l) => {
        const child = own.get(l.replaced);
        if (!l.pointed || !child) return "NONE";
        return child.kind === "SUMMARY" ? summaryStatus(child.id, visiting) : child.status;
      });
      visiting.delete(id);
      return parts.reduce((a, b) => (STATUS_ORDER.indexOf(b) < STATUS_ORDER.indexOf(a) ? b : a));
    };
    const expected: Record<string, Record<string, number>> = {};
    for (const s of mine) {
      const status = s.kind === "SUMMARY" ? summaryStatus(s.id, new Set()) : s.status;
      expected[s.class] ??= {};
      expected[s.class]![status] = (expected[s.class]![status] ?? 0) + 1;
    }
    const { grid } = await sessionGrid(tx, sessionId, policy, now);
    for (const [cls, row] of Object.entries(grid))
      for (const status of STATUS_ORDER) {
        const want = expected[cls]?.[status] ?? 0;
        if (row[status] !== want)
          out.push(`grid ${cls} x ${status} of ${sessionId} at ${at}: read ${row[status]}, recounted ${want}`);
      }
  }
  return out;
}

export type EvidenceSnapshot = Map<string, { version: bigint; fingerprint: string }>;

/**
 * Per session, its evidence_version and a fingerprint of everything a stored verdict reads, from
 * source rows: its spans' own columns, their originals' state and expiry as provenance sees them
 * (an expiry under a pin or of deleted bytes is no fact), its summary links, its cwd and its
 * skipped records.
 */
export async function evidenceSnapshot(tx: DbTx, projectId: string): Promise<EvidenceSnapshot> {
  const rows = await tx.$queryRaw<Array<{ id: string; version: bigint; fingerprint: string }>>`
    select se.id::text as id, se.evidence_version as version,
           md5(concat_ws('#', se.cwd,
             (select string_agg(r, '|' order by r) from (
                select row(s.id, s.seq, s.kind, s.class, s.class_override, s.transcript_state, s.has_pointer, s.sha256,
                           s.byte_length, s.generation, s.tool_name, s.outcome, s.occurred_at, x.span_id is null, x.bytes_state,
                           case when x.pinned or x.bytes is null then null else x.expires_at end)::text as r
                  from span s left join span_original x on x.session_id = s.session_id and x.span_id = s.id
                 where s.session_id = se.id) a),
             (select string_agg(row(l.*)::text, '|' order by row(l.*)::text) from summary_link l where l.session_id = se.id),
             (select string_agg(row(k.line, k.reason)::text, '|' order by k.line) from skipped_record k where k.session_id = se.id))) as fingerprint
      from session se where se.project_id = ${projectId}::uuid`;
  return new Map(rows.map((r) => [r.id, { version: BigInt(r.version), fingerprint: r.fingerprint }]));
}

/** Sessions whose evidence changed between two snapshots without their evidence_version moving up. */
export function versionDrift(before: EvidenceSnapshot, after: EvidenceSnapshot, act: string): string[] {
  const out: string[] = [];
  for (const [id, now] of after) {
    const was = before.get(id);
    if (!was) continue;
    if (now.version < was.version)
      out.push(`session.evidence_version of ${id} went down (${was.version} -> ${now.version}) in ${act}`);
    else if (now.fingerprint !== was.fingerprint && now.version === was.version)
      out.push(`session.evidence_version of ${id} stayed ${now.version} while its evidence changed in ${act}`);
  }
  return out;
}

/** What a workload reached, so a test can tell a workload that exercised little from one that drifted not. */
export async function coverageOf(tx: DbTx, projectId: string): Promise<Set<string>> {
  const rows = await tx.$queryRaw<Array<{ feature: string }>>`
    select distinct 'state ' || s.transcript_state::text as feature from span s join session se on se.id = s.session_id where se.project_id = ${projectId}::uuid
    union select distinct 'original ' || x.bytes_state::text from span_original x join session se on se.id = x.session_id where se.project_id = ${projectId}::uuid
    union select 'original ABSENT' from span s join session se on se.id = s.session_id
           where se.project_id = ${projectId}::uuid and not exists (select 1 from span_original x where x.session_id = s.session_id and x.span_id = s.id)
    union select distinct 'grid code ' || g.code from span_grid_count g join session se on se.id = g.session_id where se.project_id = ${projectId}::uuid and g.n > 0
    union select 'summary of a summary' from span s join session se on se.id = s.session_id where se.project_id = ${projectId}::uuid and s.generation >= 2
    union select 'pinned' from span_original x join session se on se.id = x.session_id where se.project_id = ${projectId}::uuid and x.pinned
    union select 'refusal' from refusal_event r join session se on se.id = r.session_id where se.project_id = ${projectId}::uuid
    union select 'at risk' from session se where se.project_id = ${projectId}::uuid and se.at_risk_count > 0
    union select 'unchecked' from session se where se.project_id = ${projectId}::uuid and se.unchecked_count > 0
    union select 'compaction without asking' from compaction c where c.project_id = ${projectId}::uuid and not c.asked
    union select 'seq gap' from session se where se.project_id = ${projectId}::uuid and se.seq_count < se.seq_max - se.seq_min + 1
    union select 'horizon moved' from retention_policy p where p.project_id = ${projectId}::uuid and p.evidence_horizon_days <> 20`;
  return new Set(rows.map((r) => r.feature));
}
