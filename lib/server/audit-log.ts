import { db } from "@/lib/db/client";

/** The audit log, newest first: read-only by construction (the table refuses updates and deletes). */
export async function listAuditLog(options: { limit?: number } = {}) {
  return db().auditLog.findMany({ orderBy: { at: "desc" }, take: options.limit ?? 200, include: { project: { select: { slug: true } } } });
}
