import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";

/**
 * Refuses (NOT_FOUND) unless every session named belongs to the project: acts that name sessions
 * (a bulk pin's session:span pairs, a gate run) act inside the caller's project only.
 */
export async function requireSessionsOfProject(projectId: string, sessionIds: readonly string[]): Promise<void> {
  const wanted = [...new Set(sessionIds)];
  if (wanted.length === 0) return;
  if (!wanted.every(isUuid)) throw new AppError("NOT_FOUND", "Session not found");
  const found = await db().session.count({ where: { projectId, id: { in: wanted } } });
  if (found !== wanted.length) throw new AppError("NOT_FOUND", "Session not found");
}
