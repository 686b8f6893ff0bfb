import { db } from "@/lib/db/client";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";

export interface RefusalRow {
  id: string;
  occurredAt: string;
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  cellClass: EvidentialClass;
  cellProvenance: ProvenanceStatus;
  reason: string;
  requester: string;
  atomsAtRisk: number;
  /** The gate request (reclamation) the refusal was decided in: the list groups by it. Null when its decision is gone. */
  requestId: string | null;
}

/** The page's refusals (the project's only), in the order of `keys`, with their span's seq and session title. */
export async function refusalsByKeys(
  projectId: string,
  keys: ReadonlyArray<{ sessionId: string; id: string }>,
): Promise<RefusalRow[]> {
  if (keys.length === 0) return [];
  const events = await db().refusalEvent.findMany({
    where: { projectId, OR: keys.map((k) => ({ sessionId: k.sessionId, id: k.id })) },
    include: { span: { select: { seq: true, session: { select: { title: true, externalId: true } } } } },
  });
  // Each refusal's request, through its decision (the (session_id, id) key of gate_decision).
  const decisions = await db().gateDecision.findMany({
    where: { OR: events.map((e) => ({ sessionId: e.sessionId, id: e.decisionId })) },
    select: { sessionId: true, id: true, reclamationId: true },
  });
  const requestOf = new Map(decisions.map((d) => [`${d.sessionId}/${d.id}`, d.reclamationId]));
  const byKey = new Map(events.map((e) => [`${e.sessionId}/${e.id}`, e]));
  return keys.flatMap((k) => {
    const e = byKey.get(`${k.sessionId}/${k.id}`);
    if (!e) return [];
    return [
      {
        id: e.id,
        occurredAt: e.occurredAt.toISOString(),
        sessionId: e.sessionId,
        sessionTitle: e.span.session.title ?? e.span.session.externalId,
        spanId: e.spanId,
        seq: e.span.seq,
        cellClass: e.cellClass,
        cellProvenance: e.cellProvenance,
        reason: e.reason,
        requester: e.requester,
        atomsAtRisk: Array.isArray(e.atomsAtRisk) ? e.atomsAtRisk.length : 0,
        requestId: requestOf.get(`${e.sessionId}/${e.decisionId}`) ?? null,
      },
    ];
  });
}

export interface RefusalDayCount {
  day: string;
  cellClass: EvidentialClass;
  cellProvenance: ProvenanceStatus;
  count: number;
}
