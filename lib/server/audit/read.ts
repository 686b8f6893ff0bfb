import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export interface AuditFilter {
  act?: string;
  actor?: string;
  target?: string;
  limit?: number;
}

/** The audit log, newest first, filtered: read-only by construction (the table refuses updates and deletes). */
export async function listAuditLog(filter: AuditFilter = {}) {
  const where: Prisma.AuditLogWhereInput = {
    ...(filter.act ? { act: filter.act } : {}),
    ...(filter.actor ? { actorLabel: { contains: filter.actor, mode: "insensitive" } } : {}),
    ...(filter.target ? { targetId: { startsWith: filter.target.toLowerCase() } } : {}),
  };
  const [rows, acts] = await Promise.all([
    db().auditLog.findMany({
      where,
      orderBy: { at: "desc" },
      take: Math.min(filter.limit ?? 300, 1000),
      include: { project: { select: { slug: true } } },
    }),
    db().auditLog.findMany({ distinct: ["act"], select: { act: true }, orderBy: { act: "asc" } }),
  ]);
  return { rows, acts: acts.map((a) => a.act) };
}
