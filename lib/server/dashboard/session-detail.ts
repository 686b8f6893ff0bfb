import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, ProvenanceStatus, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { loadPolicy } from "@/lib/server/retention";
import { nearerEnd } from "./list-query";
import { pageBySeq } from "./span-page-by-seq";
import { spanListExcerpts } from "./span-list-excerpts";
import { unreclaimedRange } from "./gate-range";
import {
  BULK_LIMIT,
  sessionGrid,
  sessionTimeline,
  timelineCount,
  timelineHeld,
  timelineTotal,
  type TimelineFilter,
  type TimelineSpan,
} from "@/lib/server/provenance";

/** Spans per page of a session's transcript. */
export const TIMELINE_PAGE_SIZE = 200;
/** Subagents listed in the session page's agent filter. */
export const AGENT_LIMIT = 200;
/** Skipped records listed on the session page (the count covers them all). */
export const SKIPPED_SHOWN = 100;

export interface SessionOverviewOptions {
  class?: EvidentialClass;
  provenance?: ProvenanceStatus;
  /** Only the main agent's spans (null) or one subagent's (its id); undefined for all. */
  agentId?: string | null;
  /** Only calls (and their results) with these outcomes; empty or undefined for all. */
  outcomes?: readonly ToolOutcome[];
  kind?: SpanKind;
  transcriptState?: TranscriptState;
  /** Newest first (seq descending, summaries first) rather than in transcript order. */
  descending?: boolean;
  /** 1-based page of the (filtered) transcript. */
  page?: number;
}

export interface SessionAgent {
  agentId: string;
  agentType: string | null;
}

/**
 * The session's subagents (spans with an agent id), found by a skip scan of span_agent_idx: one
 * index probe per subagent, however many spans each produced.
 */
export async function sessionAgents(sessionId: string, limit = AGENT_LIMIT): Promise<SessionAgent[]> {
  const rows = await db().$queryRaw<Array<{ agent_id: string; agent_type: string | null }>>`
    with recursive agents(agent_id) as (
      (select agent_id from span where session_id = ${sessionId}::uuid and agent_id is not null order by agent_id limit 1)
      union all
      select (select s.agent_id from span s
               where s.session_id = ${sessionId}::uuid and s.agent_id > a.agent_id order by s.agent_id limit 1)
        from agents a where a.agent_id is not null
    )
    select a.agent_id,
           (select s.agent_type from span s
             where s.session_id = ${sessionId}::uuid and s.agent_id = a.agent_id and s.agent_type is not null limit 1) as agent_type
      from agents a where a.agent_id is not null
     limit ${limit}`;
  return rows.map((r) => ({ agentId: r.agent_id, agentType: r.agent_type }));
}

/** The records the session's import skipped, in line order (the first `limit`), and how many there are. */
export async function sessionSkippedRecords(sessionId: string, limit = SKIPPED_SHOWN) {
  const [records, total] = await Promise.all([
    db().skippedRecord.findMany({
      where: { sessionId },
      orderBy: { line: "asc" },
      take: limit,
      select: { line: true, reason: true },
    }),
    db().skippedRecord.count({ where: { sessionId } }),
  ]);
  return { records, total };
}

/**
 * A session's page (in its project): the session, its grid, and one page of its transcript (a grid cell's spans,
 * one agent's, calls with some outcomes, when filtered), its subagents and the records its import
 * skipped. A 100,000-span session costs an index-only scan for the grid and a page of rows; a
 * filter on agent or outcome reads its own index up to the page and counts at most
 * TIMELINE_COUNT_AHEAD further.
 */
export async function getSessionOverview(
  projectId: string,
  sessionId: string,
  options: SessionOverviewOptions = {},
  now = new Date(),
) {
  if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
  // A session of another project is not found, exactly as one that does not exist.
  const session = await db().session.findFirst({ where: { id: sessionId, projectId }, include: { project: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const policy = await loadPolicy(db(), session.projectId);
  const [grid, agents, skipped, gateRange] = await Promise.all([
    sessionGrid(db(), session.id, policy, now),
    sessionAgents(session.id),
    sessionSkippedRecords(session.id),
    unreclaimedRange(session.id),
  ]);
  const outcomes = options.outcomes && options.outcomes.length > 0 ? [...options.outcomes] : undefined;
  const filter: TimelineFilter = {
    ...(options.class ? { class: options.class } : {}),
    ...(options.provenance ? { provenance: options.provenance } : {}),
    ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
    ...(outcomes ? { outcomes } : {}),
    ...(options.kind ? { kind: options.kind } : {}),
    ...(options.transcriptState ? { transcriptState: options.transcriptState } : {}),
  };
  // Exact totals: the grid's kept counters when the filter is a class and/or status; otherwise a
  // count over the index the filter names (span_cell_idx for kind and status, the class and state
  // index, the agent or outcome index), bounded by the session's span count.
  const counted =
    filter.agentId !== undefined ||
    filter.outcomes !== undefined ||
    filter.kind !== undefined ||
    filter.transcriptState !== undefined;
  const total = counted
    ? await timelineCount(db(), session.id, policy, now, grid, filter, session.spanCount)
    : timelineTotal(grid.grid, filter);
  const pages = Math.max(1, Math.ceil(total / TIMELINE_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pages);
  // A page in the back half is read from the other end, turned round.
  const read = nearerEnd(page, TIMELINE_PAGE_SIZE, total);
  const bySeq = pageBySeq(session, filter, {
    offset: read.offset,
    limit: read.limit,
    descending: Boolean(options.descending) !== read.reversed,
  });
  const [spans, cell] = await Promise.all([
    sessionTimeline(db(), session.id, policy, now, grid, bySeq.filter, bySeq.read).then((rows) =>
      read.reversed ? rows.reverse() : rows,
    ),
    // What a bulk pin or extend of the cell acts on: its spans whose originals are held (the whole
    // cell, whatever agent or outcome the list is narrowed to), counted with their bytes.
    actsOnCell(filter)
      ? timelineHeld(db(), session.id, policy, now, grid, { class: filter.class, provenance: filter.provenance }, 0)
      : Promise.resolve({ count: 0, bytes: 0 }),
  ]);
  // What each listed span says: a prefix of each original on the page, in one query.
  const excerpts = await spanListExcerpts(
    session.id,
    spans.map((s) => s.id),
  );
  return {
    session,
    grid: grid.grid,
    spans: spans.map((s) => ({ ...(s satisfies TimelineSpan), says: excerpts.get(s.id) })),
    total,
    page,
    pages,
    pageSize: TIMELINE_PAGE_SIZE,
    /** The held originals of the grid cell the list shows, and their bytes: what a bulk act takes. */
    cellHeld: { count: cell.count, bytes: cell.bytes },
    maxSeq: session.seqMax ?? 0,
    /** The first run of seqs none of which is reclaimed: what the gate form starts with (null: none left). */
    gateRange,
    agents,
    skipped,
  };
}

/** The bytes held by these spans' originals (one sum in SQL), for a bulk act's confirmation. */
function actsOnCell(filter: TimelineFilter): filter is TimelineFilter & {
  class: EvidentialClass;
  provenance: "DURABLE" | "EXPIRING";
} {
  return Boolean(filter.class) && (filter.provenance === "DURABLE" || filter.provenance === "EXPIRING");
}

/**
 * The held originals of one grid cell of a session of the project (up to BULK_LIMIT, in transcript
 * order), read when a bulk act runs, so the act takes the cell as it is then, not as a page showed it.
 */
export async function cellOriginals(
  projectId: string,
  sessionId: string,
  cell: { class: EvidentialClass; provenance: ProvenanceStatus },
  now = new Date(),
): Promise<{ total: number; keys: Array<{ sessionId: string; spanId: string }> }> {
  if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
  const session = await db().session.findFirst({ where: { id: sessionId, projectId }, select: { id: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const filter: TimelineFilter = { class: cell.class, provenance: cell.provenance };
  if (!actsOnCell(filter)) return { total: 0, keys: [] };
  const policy = await loadPolicy(db(), projectId);
  const grid = await sessionGrid(db(), sessionId, policy, now);
  const held = await timelineHeld(db(), sessionId, policy, now, grid, filter, BULK_LIMIT);
  return { total: held.count, keys: held.ids.map((spanId) => ({ sessionId, spanId })) };
}
