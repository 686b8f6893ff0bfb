import { db } from "@/lib/db/client";

/** The newest refusal events first, with their session, for the feed. */
export async function listRefusals(options: { limit?: number; sessionId?: string } = {}) {
  const events = await db().refusalEvent.findMany({
    where: options.sessionId ? { sessionId: options.sessionId } : {},
    orderBy: { occurredAt: "desc" },
    take: options.limit ?? 100,
    include: { span: { select: { seq: true, kind: true, session: { select: { id: true, title: true, externalId: true } } } } },
  });
  return events.map((e) => ({
    id: e.id,
    occurredAt: e.occurredAt,
    sessionId: e.sessionId,
    sessionTitle: e.span.session.title ?? e.span.session.externalId,
    spanId: e.spanId,
    seq: e.span.seq,
    cellClass: e.cellClass,
    cellProvenance: e.cellProvenance,
    reason: e.reason,
    requester: e.requester,
    atomsAtRisk: Array.isArray(e.atomsAtRisk) ? e.atomsAtRisk.length : 0,
  }));
}
