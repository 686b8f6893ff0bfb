import { AppError } from "@/lib/api/errors";
import { isUuid } from "@/lib/api/ids";
import { db } from "@/lib/db/client";
import { countGrid, sessionSpanStatuses, type GridCounts } from "./span-status";

export async function getSessionOverview(sessionId: string, now = new Date()) {
  if (!isUuid(sessionId)) throw new AppError("NOT_FOUND", "Session not found");
  const session = await db().session.findUnique({ where: { id: sessionId }, include: { project: true } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");
  const spans = await sessionSpanStatuses(db(), session.projectId, session.id, now);
  const grid: GridCounts = countGrid(spans);
  return { session, spans, grid };
}
