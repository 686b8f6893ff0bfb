/**
 * Provenance status of every span of a session (the grid's columns): an original span's from its
 * pointer and its original; a summary's the weakest among the spans it rests on, a link without a
 * pointer counting as NONE, a summary without links (or caught in a cycle) NONE. The database
 * computes the same thing with indexes (lib/server/span-status.ts); this is the definition its
 * tests hold it to.
 */
import { provenanceStatus, weakestStatus } from "./provenance";
import type { OriginalFacts, ProvenanceStatus, RetentionPolicy, SpanKind } from "./types";

export interface StatusSpan {
  id: string;
  kind: SpanKind;
  hasPointer: boolean;
  original: OriginalFacts | null;
  occurredAt: Date;
}

/** A summary replaced a span, with or without a provenance pointer. */
export interface StatusLink {
  summaryId: string;
  replacedId: string;
  pointed: boolean;
}

export function spanStatuses(
  spans: readonly StatusSpan[],
  links: readonly StatusLink[],
  policy: RetentionPolicy,
  now: Date,
): Map<string, ProvenanceStatus> {
  const linksBySummary = new Map<string, Array<{ replaced: string; pointed: boolean }>>();
  for (const link of links) {
    const list = linksBySummary.get(link.summaryId);
    const edge = { replaced: link.replacedId, pointed: link.pointed };
    if (list) list.push(edge);
    else linksBySummary.set(link.summaryId, [edge]);
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
        parents.length === 0 ? "NONE" : weakestStatus(parents.map((p) => (p.pointed ? statusOf(p.replaced, visiting) : "NONE")));
      visiting.delete(id);
    } else {
      status = provenanceStatus(
        { hasPointer: span.hasPointer, original: span.original, occurredAt: span.occurredAt },
        policy,
        now,
      );
    }
    memo.set(id, status);
    return status;
  };

  const out = new Map<string, ProvenanceStatus>();
  for (const span of spans) out.set(span.id, statusOf(span.id, new Set()));
  return out;
}
