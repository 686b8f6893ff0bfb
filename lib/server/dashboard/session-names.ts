import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";

/** Sessions named at most at once: a simulation names a bounded number, this bounds the read too. */
const MAX_NAMED = 2_000;

/**
 * The names people know sessions by (their title, else the runtime's id) for sessions of the
 * project, keyed by session id: pages that list sessions by id (the what-if) show these instead.
 * Ids of other projects, or of no session, are left out.
 */
export async function sessionNames(projectId: string, sessionIds: readonly string[]): Promise<Record<string, string>> {
  const wanted = [...new Set(sessionIds)].filter(isUuid).slice(0, MAX_NAMED);
  if (wanted.length === 0) return {};
  const rows = await db().session.findMany({
    where: { projectId, id: { in: wanted } },
    select: { id: true, title: true, externalId: true },
  });
  return Object.fromEntries(rows.map((r) => [r.id, r.title?.trim() || r.externalId]));
}
