import { AppError } from "@/lib/api/errors";
import { isUuid } from "@/lib/api/ids";
import { db } from "@/lib/db/client";
import { countGrid, sessionSpanStatuses, type GridCounts } from "./span-status";

export interface SessionSummary {
  id: string;
  projectSlug: string;
  externalId: string;
  runtime: string;
  title: string | null;
  lastActivityAt: Date;
  spanCount: number;
  refusalCount: number;
}

/** Sessions, most recently active first, with span and refusal counts from indexed group-bys. */
export async function listSessions(options: { limit?: number; offset?: number } = {}): Promise<SessionSummary[]> {
  const sessions = await db().session.findMany({
    orderBy: { lastActivityAt: "desc" },
    take: options.limit ?? 50,
    skip: options.offset ?? 0,
    include: { project: { select: { slug: true } } },
  });
  const ids = sessions.map((s) => s.id);
  const [spanCounts, refusalCounts] = await Promise.all([
    db().span.groupBy({ by: ["sessionId"], where: { sessionId: { in: ids } }, _count: { _all: true } }),
    db().refusalEvent.groupBy({ by: ["sessionId"], where: { sessionId: { in: ids } }, _count: { _all: true } }),
  ]);
  const spans = new Map(spanCounts.map((c) => [c.sessionId, c._count._all]));
  const refusals = new Map(refusalCounts.map((c) => [c.sessionId, c._count._all]));
  return sessions.map((s) => ({
    id: s.id,
    projectSlug: s.project.slug,
    externalId: s.externalId,
    runtime: s.runtime,
    title: s.title,
    lastActivityAt: s.lastActivityAt,
    spanCount: spans.get(s.id) ?? 0,
    refusalCount: refusals.get(s.id) ?? 0,
  }));
}

export async function getSessionOverview(sessionId: string, now = new Date()) {
  if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
  const session = await db().session.findUnique({ where: { id: sessionId }, include: { project: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const spans = await sessionSpanStatuses(db(), session.projectId, session.id, now);
  const grid: GridCounts = countGrid(spans);
  return { session, spans, grid };
}
