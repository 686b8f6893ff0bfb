import type { DbTx } from "@/lib/db/client";
import { provenanceStatus, weakestStatus } from "@/lib/evidence/provenance";
import type { EvidentialClass, ProvenanceStatus, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { loadOriginalFacts } from "./original-facts";
import { loadPolicy } from "./policy";

export interface SpanStatus {
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  transcriptState: TranscriptState;
  provenance: ProvenanceStatus;
  occurredAt: Date;
}

/**
 * Every span of a session with its provenance status derived now (DESIGN.md: never stored stale).
 * An original span's status comes from its pointer and its original; a summary's is the weakest
 * among the spans it rests on, a link without a pointer counting as NONE.
 */
export async function sessionSpanStatuses(tx: DbTx, projectId: string, sessionId: string, now: Date): Promise<SpanStatus[]> {
  const [policy, spans, links] = await Promise.all([
    loadPolicy(tx, projectId),
    tx.span.findMany({
      where: { sessionId },
      select: { id: true, seq: true, kind: true, class: true, transcriptState: true, hasPointer: true, occurredAt: true },
      orderBy: [{ seq: "asc" }, { occurredAt: "asc" }],
    }),
    tx.summaryLink.findMany({ where: { sessionId }, select: { summarySpanId: true, replacedSpanId: true, pointerSha256: true } }),
  ]);
  const originals = await loadOriginalFacts(tx, sessionId, spans.map((s) => s.id));
  const linksBySummary = new Map<string, Array<{ replaced: string; pointed: boolean }>>();
  for (const link of links) {
    const list = linksBySummary.get(link.summarySpanId) ?? [];
    list.push({ replaced: link.replacedSpanId, pointed: link.pointerSha256 !== null });
    linksBySummary.set(link.summarySpanId, list);
  }
  const byId = new Map(spans.map((s) => [s.id, s]));
  const memo = new Map<string, ProvenanceStatus>();

  const statusOf = (id: string, visiting: Set<string>): ProvenanceStatus => {
    const known = memo.get(id);
    if (known) return known;
    const span = byId.get(id);
    if (!span || visiting.has(id)) return "NONE";
    let status: ProvenanceStatus;
    if (span.kind === "SUMMARY") {
      const parents = linksBySummary.get(id) ?? [];
      visiting.add(id);
      status =
        parents.length === 0
          ? "NONE"
          : weakestStatus(parents.map((p) => (p.pointed ? statusOf(p.replaced, visiting) : "NONE")));
      visiting.delete(id);
    } else {
      status = provenanceStatus({ hasPointer: span.hasPointer, original: originals.get(id) ?? null, occurredAt: span.occurredAt }, policy, now);
    }
    memo.set(id, status);
    return status;
  };

  return spans.map((span) => ({
    id: span.id,
    seq: span.seq,
    kind: span.kind,
    class: span.class,
    transcriptState: span.transcriptState,
    provenance: statusOf(span.id, new Set()),
    occurredAt: span.occurredAt,
  }));
}

export type GridCounts = Record<EvidentialClass, Record<ProvenanceStatus, number>>;

export function emptyGrid(): GridCounts {
  const row = () => ({ DURABLE: 0, EXPIRING: 0, LOST: 0, NONE: 0 });
  return { NARRATIVE: row(), STRUCTURED: row(), SIDE_EFFECTING: row() };
}

export function countGrid(statuses: Iterable<Pick<SpanStatus, "class" | "provenance">>, into = emptyGrid()): GridCounts {
  for (const s of statuses) into[s.class][s.provenance] += 1;
  return into;
}
