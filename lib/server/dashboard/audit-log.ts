import { db } from "@/lib/db/client";

export interface ProjectAuditFilter {
  act?: string;
  actor?: string;
  target?: string;
  limit?: number;
}

/**
 * A project's audit log, newest first, filtered: only rows written for this project (index on
 * project_id, at). Instance acts with no project (people's instance roles) are the admin page's.
 */
export async function projectAuditLog(projectId: string, filter: ProjectAuditFilter = {}) {
  const [rows, acts] = await Promise.all([
    db().auditLog.findMany({
      where: {
        projectId,
        ...(filter.act ? { act: filter.act } : {}),
        ...(filter.actor ? { actorLabel: { contains: filter.actor, mode: "insensitive" as const } } : {}),
        ...(filter.target ? { targetId: { startsWith: filter.target.toLowerCase() } } : {}),
      },
      orderBy: { at: "desc" },
      take: Math.min(filter.limit ?? 300, 1000),
    }),
    db().auditLog.findMany({ where: { projectId }, distinct: ["act"], select: { act: true }, orderBy: { act: "asc" } }),
  ]);
  return { rows, acts: acts.map((a) => a.act) };
}
