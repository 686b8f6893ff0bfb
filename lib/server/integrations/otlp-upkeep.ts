/**
 * Upkeep of the OTLP receiver's raw spans (otlp_span), run in the maintenance round.
 *
 * Why rows are kept after their spans were ingested at all: the receiver maps a conversation as a
 * whole at every batch (a tool span inherits its conversation from an ancestor, a chat request
 * repeats the history before it and a message is kept only where it first appears, a compaction
 * replaces everything since the previous one), so a later batch needs the conversation's earlier
 * spans. Deleting single old rows of a conversation still running would make its next batch ingest
 * that history again as new spans, or put a tool span in the wrong session.
 *
 * Why they must go eventually: each row is a copy of what its spans hold (messages, tool arguments
 * and results); kept forever, it would outlive the originals the sweeper deletes at their TTL.
 *
 * So a conversation's rows go together, once the conversation has been quiet for the project's
 * narrative TTL (the shortest-lived content they copy, and the first the sweeper takes): no row of
 * its traces, nor of any trace of a conversation those traces name (what a batch's mapping
 * reaches), was received since. A narrative TTL under a day counts as a day, so a conversation
 * that pauses for minutes is not cut in two.
 */
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { mapOtlpTraces, OTLP_HOLD_MS } from "./otlp-ingest";

const MIN_QUIET_DAYS = 1;

/** Deletes the raw OTLP spans of every conversation quiet for its project's narrative TTL. */
export async function forgetQuietOtlpSpans(now = new Date()): Promise<number> {
  return db().$executeRaw`
    with quiet_after as (
      select p.id as project_id,
             ${now}::timestamptz - make_interval(days => greatest(coalesce(r.ttl_narrative_days, ${DEFAULT_POLICY.ttlDays.NARRATIVE}::int), ${MIN_QUIET_DAYS}::int)) as since
        from project p left join retention_policy r on r.project_id = p.id
    ),
    recent_traces as (
      select distinct o.project_id, o.trace_id
        from otlp_span o join quiet_after q on q.project_id = o.project_id
       where o.received_at > q.since
    ),
    recent_conversations as (
      select distinct o.project_id, o.conversation_id
        from otlp_span o join recent_traces t on t.project_id = o.project_id and t.trace_id = o.trace_id
       where o.conversation_id is not null
    ),
    live_traces as (
      select project_id, trace_id from recent_traces
      union
      select o.project_id, o.trace_id
        from otlp_span o join recent_conversations c on c.project_id = o.project_id and c.conversation_id = o.conversation_id
    )
    delete from otlp_span o
     where not exists (select 1 from live_traces l where l.project_id = o.project_id and l.trace_id = o.trace_id)`;
}

/** Who the ingest and any compaction links of a released span are recorded as requested by. */
const MAINTENANCE = "maintenance (held OTLP spans)";

/**
 * Maps the spans still held for an ancestor that never came. A batch holds a span whose ancestor
 * has not arrived for OTLP_HOLD_MS; only a later batch touching its trace or conversation maps it
 * after that, and for the last spans of a run none comes. A span counts as still held when its
 * wait is over, an ancestor is still missing, and nothing was made of it yet: no span and no
 * skipped record carries its receipt number. (A held span the importer ignores on purpose leaves
 * neither, so it is mapped again at each round, which changes nothing, until its conversation is
 * forgotten.) Returns the spans ingested.
 */
export async function releaseHeldOtlpSpans(now = new Date()): Promise<number> {
  const waitedSince = new Date(now.getTime() - OTLP_HOLD_MS);
  // Two reads rather than one join: otlp_span stays on the coordinator of a Citus cluster, where
  // it cannot be joined with the distributed span and session tables (docs/citus.md). The waiting
  // spans are few (most batches bring their ancestors), so the second read is usually skipped.
  const waiting = await db().$queryRaw<Array<{ project_id: string; trace_id: string; ordinal: string }>>`
    select o.project_id::text as project_id, o.trace_id, o.ordinal::text as ordinal
      from otlp_span o
     where o.parent_span_id is not null
       and o.received_at <= ${waitedSince}
       and not exists (select 1 from otlp_span p
                        where p.project_id = o.project_id and p.trace_id = o.trace_id and p.span_id = o.parent_span_id)`;
  if (waiting.length === 0) return 0;
  const made = await madeFromReceipts(
    [...new Set(waiting.map((r) => r.project_id))],
    waiting.map((r) => r.ordinal),
  );
  const traces = new Map<string, Set<string>>();
  for (const row of waiting) {
    if (made.has(`${row.project_id}:${row.ordinal}`)) continue;
    traces.set(row.project_id, (traces.get(row.project_id) ?? new Set()).add(row.trace_id));
  }
  let ingested = 0;
  for (const [projectId, traceIds] of traces)
    ingested += await mapOtlpTraces(projectId, [...traceIds], { requester: MAINTENANCE, now });
  return ingested;
}

/** The receipt numbers (as `project:ordinal`) among `ordinals` that a span or a skipped record of the projects' OTLP sessions carries. */
async function madeFromReceipts(projectIds: string[], ordinals: string[]): Promise<Set<string>> {
  const [spans, skipped] = await Promise.all([
    db().$queryRaw<Array<{ project_id: string; line: string }>>`
      select distinct se.project_id::text as project_id, s.source_line::text as line
        from span s join session se on se.id = s.session_id
       where se.project_id = any(${projectIds}::uuid[]) and se.runtime = 'otel-genai'
         and s.source_line = any(${ordinals}::bigint[])`,
    db().$queryRaw<Array<{ project_id: string; line: string }>>`
      select distinct se.project_id::text as project_id, k.line::text as line
        from skipped_record k join session se on se.id = k.session_id
       where se.project_id = any(${projectIds}::uuid[]) and se.runtime = 'otel-genai'
         and k.line = any(${ordinals}::bigint[])`,
  ]);
  return new Set([...spans, ...skipped].map((r) => `${r.project_id}:${r.line}`));
}
