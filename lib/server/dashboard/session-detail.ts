import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";
import { loadPolicy } from "@/lib/server/retention";
import { sessionGrid, sessionTimeline, timelineTotal, type SpanStatus, type TimelineFilter } from "@/lib/server/provenance";

/** Spans per page of a session's transcript. */
export const TIMELINE_PAGE_SIZE = 200;
/** At most this many spans of a grid cell get a bulk act at once. */
export const CELL_BULK_LIMIT = 1000;

export interface SessionOverviewOptions {
  class?: EvidentialClass;
  provenance?: ProvenanceStatus;
  /** 1-based page of the (filtered) transcript. */
  page?: number;
}

/**
 * A session's page: the session, its grid, and one page of its transcript (a grid cell's spans
 * when filtered). A 100,000-span session costs an index-only scan for the grid and a page of rows.
 */
export async function getSessionOverview(sessionId: string, options: SessionOverviewOptions = {}, now = new Date()) {
  if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
  const session = await db().session.findUnique({ where: { id: sessionId }, include: { project: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const policy = await loadPolicy(db(), session.projectId);
  const grid = await sessionGrid(db(), session.id, policy, now);
  const filter: TimelineFilter = {
    ...(options.class ? { class: options.class } : {}),
    ...(options.provenance ? { provenance: options.provenance } : {}),
  };
  const total = timelineTotal(grid.grid, filter);
  const pages = Math.max(1, Math.ceil(total / TIMELINE_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pages);
  const [spans, cellSpanIds] = await Promise.all([
    sessionTimeline(db(), session.id, policy, now, grid, filter, {
      offset: (page - 1) * TIMELINE_PAGE_SIZE,
      limit: TIMELINE_PAGE_SIZE,
    }),
    // What a bulk pin or extend of the cell acts on: its spans whose originals can still be kept.
    filter.class && filter.provenance && filter.provenance !== "LOST" && filter.provenance !== "NONE"
      ? sessionTimeline(db(), session.id, policy, now, grid, filter, { offset: 0, limit: CELL_BULK_LIMIT }).then((s) =>
          s.map((x) => x.id),
        )
      : Promise.resolve([] as string[]),
  ]);
  return {
    session,
    grid: grid.grid,
    spans: spans satisfies SpanStatus[],
    total,
    page,
    pages,
    pageSize: TIMELINE_PAGE_SIZE,
    cellSpanIds,
    maxSeq: session.seqMax ?? 0,
  };
}
