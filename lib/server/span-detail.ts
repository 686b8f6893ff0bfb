import { AppError } from "@/lib/api/errors";
import { isUuid } from "@/lib/api/ids";
import { db } from "@/lib/db/client";
import { computeLineage, type Lineage, type LineageGraph, type LineageSpanFacts } from "@/lib/evidence/lineage";
import { horizonFor } from "@/lib/evidence/policy";
import type { ClassReason } from "@/lib/evidence/types";
import { sha256Hex } from "./hash";
import { loadOriginalFacts } from "./original-facts";
import { loadPolicy } from "./policy";
import { loadAtoms } from "./reclaim";
import { spanStatusOf } from "./span-status";

/**
 * Everything the span page shows: the verbatim bytes with their atoms, why the span has its class,
 * a live hash check, retention dates, the gate's decisions and, for summaries, their lineage.
 */
export async function getSpanDetail(spanId: string, now = new Date()) {
  if (!isUuid(spanId)) throw new AppError("NOT_FOUND", "Span not found");
  const span = await db().span.findFirst({
    where: { id: spanId },
    include: {
      session: { include: { project: { select: { id: true, slug: true } } } },
      original: true,
      gateDecisions: { orderBy: { decidedAt: "desc" }, take: 50 },
      replaces: { select: { replacedSpanId: true, pointerSha256: true, dropped: true } },
      replacedBy: { select: { summarySpanId: true, pointerSha256: true, dropped: true } },
    },
  });
  if (!span) throw new AppError("NOT_FOUND", "Span not found");
  const projectId = span.session.projectId;
  const policy = await loadPolicy(db(), projectId);
  const atoms = (await loadAtoms(db(), span.sessionId, [span.id])).get(span.id) ?? [];
  const provenance = await spanStatusOf(db(), span.sessionId, span.id, policy, now);
  const bytes = span.original?.bytes ? new Uint8Array(span.original.bytes) : null;
  const liveSha256 = bytes ? sha256Hex(bytes) : null;

  return {
    span,
    projectSlug: span.session.project.slug,
    provenance,
    classReasons: (Array.isArray(span.classReasons) ? span.classReasons : []) as unknown as ClassReason[],
    atoms,
    bytes,
    hashCheck: bytes === null ? "missing" : liveSha256 === span.sha256 ? "verified" : "mismatch",
    liveSha256,
    expiresAt: span.original?.expiresAt ?? null,
    pinned: span.original?.pinned ?? false,
    deletedAt: span.original?.deletedAt ?? null,
    horizonAt: horizonFor(span.occurredAt, policy),
    lineage: span.kind === "SUMMARY" && span.replaces.length > 0 ? await summaryLineage(span.sessionId, span.id, policy, now) : null,
  };
}

export type SpanDetail = Awaited<ReturnType<typeof getSpanDetail>>;

/** The summary's lineage over its session's summary links: roots, generation, fidelity per generation. */
async function summaryLineage(sessionId: string, summaryId: string, policy: Awaited<ReturnType<typeof loadPolicy>>, now: Date): Promise<Lineage> {
  // Only the links below this summary: a long session has tens of thousands of others.
  const links = await db().$queryRaw<Array<{ summarySpanId: string; replacedSpanId: string; pointerSha256: string | null }>>`
    with recursive down(summary_id, replaced_id, pointer) as (
      select summary_span_id, replaced_span_id, pointer_sha256 from summary_link
       where session_id = ${sessionId}::uuid and summary_span_id = ${summaryId}::uuid
      union
      select l.summary_span_id, l.replaced_span_id, l.pointer_sha256
        from summary_link l join down d on l.summary_span_id = d.replaced_id
       where l.session_id = ${sessionId}::uuid)
    select summary_id::text as "summarySpanId", replaced_id::text as "replacedSpanId", pointer::text as "pointerSha256" from down`;
  const graph = new Map<string, Array<{ spanId: string; hasPointer: boolean }>>();
  for (const link of links) {
    const list = graph.get(link.summarySpanId) ?? [];
    list.push({ spanId: link.replacedSpanId, hasPointer: link.pointerSha256 !== null });
    graph.set(link.summarySpanId, list);
  }
  const ids = [...new Set(links.flatMap((l) => [l.summarySpanId, l.replacedSpanId]))];
  const [spans, atoms, originals] = await Promise.all([
    db().span.findMany({ where: { sessionId, id: { in: ids } }, select: { id: true, class: true, occurredAt: true, kind: true, original: { select: { bytes: true } } } }),
    loadAtoms(db(), sessionId, ids),
    loadOriginalFacts(db(), sessionId, ids),
  ]);
  const facts = new Map<string, LineageSpanFacts>(
    spans.map((s) => [
      s.id,
      {
        class: s.class,
        atoms: atoms.get(s.id) ?? [],
        original: originals.get(s.id) ?? null,
        occurredAt: s.occurredAt,
        ...(s.kind === "SUMMARY" && s.original?.bytes ? { text: new TextDecoder().decode(s.original.bytes) } : {}),
      },
    ]),
  );
  return computeLineage(summaryId, graph as LineageGraph, facts, policy, now);
}
