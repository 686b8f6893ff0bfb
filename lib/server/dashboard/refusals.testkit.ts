/**
 * Refusal rows for tests, written as the gate writes them: each gate request's refusals share one
 * request id and one time (the refusals list keeps a request whole on one page by both).
 */
import { randomUUID } from "node:crypto";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";

export interface RefusedRequest {
  occurredAt: Date;
  reason: string;
  requester: string;
  /** One refusal per cell, of the same span. */
  cells: Array<[EvidentialClass, ProvenanceStatus]>;
}

/** The rows of `requests`, each refusing `spanId` of the session once per cell, for refusalEvent.createMany. */
export function refusalRowsOf(at: { projectId: string; sessionId: string; spanId: string }, requests: RefusedRequest[]) {
  return requests.flatMap((request) => {
    const requestId = randomUUID();
    return request.cells.map(([cellClass, cellProvenance]) => ({
      id: randomUUID(),
      projectId: at.projectId,
      sessionId: at.sessionId,
      spanId: at.spanId,
      decisionId: randomUUID(),
      requestId,
      cellClass,
      cellProvenance,
      reason: request.reason,
      requester: request.requester,
      atomsAtRisk: [],
      occurredAt: request.occurredAt,
    }));
  });
}
