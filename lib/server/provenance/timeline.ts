/**
 * A session's transcript a page at a time, in order (seq, summaries after), filtered by class,
 * status, producing agent and call outcome, each span with its status: what the session page lists.
 */
import type { DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, ProvenanceStatus, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { type GridCounts, type SessionGrid, SPAN_FACTS, type SpanRowFacts, type SpanStatus, toSpanStatus } from "./span-status";
import { statusExpression } from "./status-sql";

export interface TimelineFilter {
  class?: EvidentialClass;
  provenance?: ProvenanceStatus;
  /**
   * Only the spans one agent produced: null for the session's main agent, else a subagent's id.
   * Undefined: every agent's.
   */
  agentId?: string | null;
  /** Only spans whose call ended with one of these outcomes (calls and their paired results). */
  outcomes?: readonly ToolOutcome[];
  kind?: SpanKind;
  transcriptState?: TranscriptState;
  /** Only spans with a seq in this range (inclusive): a page found by its seq instead of an offset. */
  seqFrom?: number;
  seqTo?: number;
}

/** A span of the transcript with its status, and the call facts and agent the session page shows. */
export interface TimelineSpan extends SpanStatus {
  outcome: ToolOutcome | null;
  exitCode: number | null;
  /** Null for the session's main agent. */
  agentId: string | null;
  agentType: string | null;
}

interface TimelineRow extends SpanRowFacts {
  outcome: ToolOutcome | null;
  exit_code: number | null;
  agent_id: string | null;
  agent_type: string | null;
}

/**
 * A page of the session's transcript in order (seq, summaries after), optionally only one class,
 * status, agent and/or call outcomes, each span with its status, call outcome and agent. `grid` is
 * the session's (for summaries' statuses).
 */
export async function sessionTimeline(
  tx: DbTx,
  sessionId: string,
  policy: RetentionPolicy,
  now: Date,
  grid: SessionGrid,
  filter: TimelineFilter,
  page: { offset: number; limit: number; descending?: boolean },
): Promise<TimelineSpan[]> {
  const rows = await tx.$queryRaw<TimelineRow[]>(timelineQuery(sessionId, policy, now, grid, filter, page));
  return rows.map((row) => ({
    ...toSpanStatus(row, policy, now, grid.summaryStatuses),
    outcome: row.outcome,
    exitCode: row.exit_code,
    agentId: row.agent_id,
    agentType: row.agent_type,
  }));
}

export function timelineQuery(
  sessionId: string,
  policy: RetentionPolicy,
  now: Date,
  grid: SessionGrid,
  filter: TimelineFilter,
  page: { offset: number; limit: number; descending?: boolean },
): Prisma.Sql {
  // The page is found first from the columns the cell, agent and outcome indexes hold (an
  // index-only scan for a cell, however deep the page); only its rows are then read for the call
  // facts and agent, by primary key. Descending is the same order turned round (summaries first).
  const order = page.descending
    ? Prisma.sql`seq desc nulls first, occurred_at desc, id desc`
    : Prisma.sql`seq asc nulls last, occurred_at asc, id asc`;
  const outer = page.descending
    ? Prisma.sql`p.seq desc nulls first, p.occurred_at desc, p.id desc`
    : Prisma.sql`p.seq asc nulls last, p.occurred_at asc, p.id asc`;
  return Prisma.sql`
    select p.*, s.outcome::text as outcome, s.exit_code, s.agent_id, s.agent_type
      from (select ${SPAN_FACTS}
              from span
             where ${timelineWhere(sessionId, policy, now, grid, filter)}
             order by ${order}
             limit ${page.limit} offset ${page.offset}) p
      join span s on s.session_id = ${sessionId}::uuid and s.id = p.id::uuid
     order by ${outer}`;
}

/**
 * How many spans the timeline lists under a filter that names an agent or outcomes (the grid
 * cannot tell), counted no further than `cap`: the count reads the agent or outcome index only
 * as far as the cap, so a page of a 100,000-span session never counts all of it. A result above
 * `cap` means "more than cap".
 */
export async function timelineCount(
  tx: DbTx,
  sessionId: string,
  policy: RetentionPolicy,
  now: Date,
  grid: SessionGrid,
  filter: TimelineFilter,
  cap: number,
): Promise<number> {
  const [row] = await tx.$queryRaw<Array<{ n: number }>>`
    select count(*)::int as n
      from (select 1 from span where ${timelineWhere(sessionId, policy, now, grid, filter)} limit ${cap + 1}) counted`;
  return row?.n ?? 0;
}

/**
 * The spans a filter selects whose originals are held, with their ids (in transcript order, up to
 * `limit`), how many there are and the bytes they hold: what a bulk act over a grid cell acts on
 * and what its confirmation names. Read from span_cell_idx (class, then the copied original facts).
 */
export async function timelineHeld(
  tx: DbTx,
  sessionId: string,
  policy: RetentionPolicy,
  now: Date,
  grid: SessionGrid,
  filter: TimelineFilter,
  limit: number,
): Promise<{ count: number; bytes: number; ids: string[] }> {
  const where = Prisma.sql`${timelineWhere(sessionId, policy, now, grid, filter)} and original_state = 'HELD'`;
  const [[totals], ids] = await Promise.all([
    tx.$queryRaw<Array<{ n: number; bytes: bigint | number | null }>>`
      select count(*)::int as n, sum(byte_length) as bytes from span where ${where}`,
    limit > 0
      ? tx.$queryRaw<Array<{ id: string }>>`select id::text as id from span where ${where} order by seq, id limit ${limit}`
      : Promise.resolve([]),
  ]);
  return { count: totals?.n ?? 0, bytes: Number(totals?.bytes ?? 0), ids: ids.map((r) => r.id) };
}

function timelineWhere(
  sessionId: string,
  policy: RetentionPolicy,
  now: Date,
  grid: SessionGrid,
  filter: TimelineFilter,
): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`session_id = ${sessionId}::uuid`];
  if (filter.class) conditions.push(Prisma.sql`class = ${filter.class}::"EvidentialClass"`);
  if (filter.seqFrom !== undefined) conditions.push(Prisma.sql`seq >= ${filter.seqFrom}`);
  if (filter.seqTo !== undefined) conditions.push(Prisma.sql`seq <= ${filter.seqTo}`);
  if (filter.kind) conditions.push(Prisma.sql`kind = ${filter.kind}::"SpanKind"`);
  if (filter.transcriptState) conditions.push(Prisma.sql`transcript_state = ${filter.transcriptState}::"TranscriptState"`);
  if (filter.agentId === null) conditions.push(Prisma.sql`agent_id is null`);
  else if (filter.agentId !== undefined) conditions.push(Prisma.sql`agent_id = ${filter.agentId}`);
  if (filter.outcomes && filter.outcomes.length > 0)
    conditions.push(Prisma.sql`outcome = any(${[...filter.outcomes]}::"ToolOutcome"[])`);
  if (filter.provenance) {
    const summaries = [...grid.summaryStatuses].filter(([, s]) => s === filter.provenance).map(([id]) => id);
    const status = statusExpression("", { now, horizonDays: policy.evidenceHorizonDays });
    conditions.push(
      Prisma.sql`((kind <> 'SUMMARY' and ${status} = ${filter.provenance}) or (kind = 'SUMMARY' and id = any(${summaries}::uuid[])))`,
    );
  }
  return Prisma.join(conditions, " and ");
}

/**
 * How many spans the timeline lists under a class and/or status filter: read off the grid (a
 * filter on agent or outcomes is counted by timelineCount).
 */
export function timelineTotal(grid: GridCounts, filter: TimelineFilter): number {
  let total = 0;
  for (const cls of Object.keys(grid) as EvidentialClass[]) {
    if (filter.class && cls !== filter.class) continue;
    for (const status of Object.keys(grid[cls]) as ProvenanceStatus[]) {
      if (filter.provenance && status !== filter.provenance) continue;
      total += grid[cls][status];
    }
  }
  return total;
}
