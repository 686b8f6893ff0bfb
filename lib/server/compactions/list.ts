/**
 * Compactions as events of their own: a project's, paged with their total, and the ones done
 * without asking the gate as a feed the refusal feed merges with its refusals.
 */
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export const COMPACTION_PAGE_SIZE = 50;
/** Feed rows read at most per call, like the refusal feed's. */
export const COMPACTION_FEED_LIMIT = 500;

export interface CompactionRow {
  /** The reclamation id its gate decisions carry. */
  id: string;
  sessionId: string;
  sessionTitle: string;
  /** False: the runtime compacted without asking the gate (an import, a hook or OTLP report after the fact). */
  asked: boolean;
  summarySpanId: string | null;
  replacedCount: number;
  /** Asked: spans the gate refused. Not asked: spans it would have refused, replaced all the same. */
  refusedCount: number;
  requester: string;
  occurredAt: string;
}

const SELECT = {
  id: true,
  sessionId: true,
  asked: true,
  summarySpanId: true,
  replacedCount: true,
  refusedCount: true,
  requester: true,
  occurredAt: true,
  session: { select: { title: true, externalId: true } },
} as const satisfies Prisma.CompactionSelect;

function toRow(c: Prisma.CompactionGetPayload<{ select: typeof SELECT }>): CompactionRow {
  return {
    id: c.id,
    sessionId: c.sessionId,
    sessionTitle: c.session.title ?? c.session.externalId,
    asked: c.asked,
    summarySpanId: c.summarySpanId,
    replacedCount: c.replacedCount,
    refusedCount: c.refusedCount,
    requester: c.requester,
    occurredAt: c.occurredAt.toISOString(),
  };
}

/** A session filter that cannot name another project's session: scoped with the project in the query. */
function sessionFilter(sessionId: string | undefined): Prisma.CompactionWhereInput {
  if (sessionId === undefined) return {};
  if (!isUuid(sessionId))
    throw new AppError("VALIDATION_FAILED", "The session filter is not a session id", {
      fields: [{ path: "sessionId", message: "Expected a session id (uuid)" }],
    });
  return { sessionId };
}

/** A project's compactions, newest first, a page at a time with the total for the same filter. */
export async function listCompactions(
  projectId: string,
  options: { asked?: boolean; page?: number; sessionId?: string } = {},
): Promise<{ items: CompactionRow[]; total: number; page: number; pageSize: number }> {
  const page = options.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > 100_000)
    throw new AppError("VALIDATION_FAILED", "The page is not a page number", {
      fields: [{ path: "page", message: "Expected a whole number from 1 to 100000" }],
    });
  const where: Prisma.CompactionWhereInput = {
    projectId,
    ...(options.asked === undefined ? {} : { asked: options.asked }),
    ...sessionFilter(options.sessionId),
  };
  const [rows, total] = await Promise.all([
    db().compaction.findMany({
      where,
      select: SELECT,
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * COMPACTION_PAGE_SIZE,
      take: COMPACTION_PAGE_SIZE,
    }),
    db().compaction.count({ where }),
  ]);
  return { items: rows.map(toRow), total, page, pageSize: COMPACTION_PAGE_SIZE };
}

/**
 * Compactions done without asking, newest first, at or after `since` (the feed's window or the
 * newest event a client already holds), read by (project_id, asked, occurred_at).
 */
export async function unaskedCompactionsSince(
  projectId: string,
  options: { since?: Date; sessionId?: string; limit?: number } = {},
): Promise<CompactionRow[]> {
  const rows = await db().compaction.findMany({
    where: {
      projectId,
      asked: false,
      ...(options.since ? { occurredAt: { gte: options.since } } : {}),
      ...sessionFilter(options.sessionId),
    },
    select: SELECT,
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take: Math.max(1, Math.min(options.limit ?? 100, COMPACTION_FEED_LIMIT)),
  });
  return rows.map(toRow);
}
