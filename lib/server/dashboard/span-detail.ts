import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { computeLineage, LineageError, type Lineage, type LineageGraph, type LineageSpanFacts } from "@/lib/evidence/lineage";
import type { StatusLink } from "@/lib/evidence/span-statuses";
import { horizonFor } from "@/lib/evidence/policy";
import type { ClassReason } from "@/lib/evidence/types";
import { loadOriginalFacts } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { loadAtoms } from "@/lib/server/gate";
import { lineageStatuses } from "@/lib/server/provenance";
import { readSpanExcerpt } from "./span-excerpt";

/**
 * Everything the span page shows (a span of the project): the verbatim bytes with their atoms, why the span has its class,
 * a live hash check, retention dates, the gate's decisions and, for summaries, their lineage. Of the bytes, an
 * excerpt (see ./span-excerpt): from the start, or around `cited` when the page opens a citation.
 */
export async function getSpanDetail(
  projectId: string,
  spanId: string,
  now = new Date(),
  cited?: { byteStart: number; byteEnd: number },
) {
  if (!isUuid(spanId)) throw new AppError("NOT_FOUND", "Span not found");
  // A span of another project is not found, exactly as one that does not exist.
  const span = await db().span.findFirst({
    where: { id: spanId, session: { projectId } },
    include: {
      session: { include: { project: { select: { id: true, slug: true } } } },
      // The facts of the original, never its bytes: the excerpt is read on its own.
      original: { select: { expiresAt: true, pinned: true, deletedAt: true } },
      gateDecisions: { orderBy: { decidedAt: "desc" }, take: 50 },
      replaces: { select: { replacedSpanId: true, pointerSha256: true, dropped: true } },
      replacedBy: { select: { summarySpanId: true, pointerSha256: true, dropped: true } },
    },
  });
  if (!span) throw new AppError("NOT_FOUND", "Span not found");
  const policy = await loadPolicy(db(), projectId);
  const atoms = (await loadAtoms(db(), span.sessionId, [span.id])).get(span.id) ?? [];
  // The span's status and, for a summary, the links below it that its lineage is computed over.
  const below = await lineageStatuses(db(), span.sessionId, [span.id], policy, now);
  const provenance = below.statuses.get(span.id) ?? "NONE";
  const { excerpt, liveSha256 } = await readSpanExcerpt(span.sessionId, span.id, cited);

  return {
    span,
    projectSlug: span.session.project.slug,
    provenance,
    classReasons: (Array.isArray(span.classReasons) ? span.classReasons : []) as unknown as ClassReason[],
    atoms,
    excerpt,
    hashCheck: excerpt === null ? "missing" : liveSha256 === span.sha256 ? "verified" : "mismatch",
    liveSha256,
    expiresAt: span.original?.expiresAt ?? null,
    pinned: span.original?.pinned ?? false,
    deletedAt: span.original?.deletedAt ?? null,
    horizonAt: horizonFor(span.occurredAt, policy),
    ...(span.kind === "SUMMARY" && span.replaces.length > 0
      ? await lineageOrProblem(span.sessionId, span.id, below.links, policy, now)
      : NO_LINEAGE),
  };
}

export type SpanDetail = Awaited<ReturnType<typeof getSpanDetail>>;

const NO_LINEAGE = { lineage: null, lineageProblem: null };

/**
 * The summary's lineage, or why there is none: links that lead round in a cycle (which the
 * runtime's own records can contain) have no generations to count, and the page says so.
 */
async function lineageOrProblem(
  sessionId: string,
  summaryId: string,
  links: StatusLink[],
  policy: Awaited<ReturnType<typeof loadPolicy>>,
  now: Date,
): Promise<{ lineage: Lineage | null; lineageProblem: string | null }> {
  try {
    return { lineage: await summaryLineage(sessionId, summaryId, links, policy, now), lineageProblem: null };
  } catch (error) {
    if (error instanceof LineageError) return { lineage: null, lineageProblem: error.message };
    throw error;
  }
}

/** The summary's lineage over the summary links below it: roots, generation, fidelity per generation. */
async function summaryLineage(
  sessionId: string,
  summaryId: string,
  links: StatusLink[],
  policy: Awaited<ReturnType<typeof loadPolicy>>,
  now: Date,
): Promise<Lineage> {
  const graph = new Map<string, Array<{ spanId: string; hasPointer: boolean }>>();
  for (const link of links) {
    const list = graph.get(link.summaryId) ?? [];
    list.push({ spanId: link.replacedId, hasPointer: link.pointed });
    graph.set(link.summaryId, list);
  }
  const ids = [...new Set(links.flatMap((l) => [l.summaryId, l.replacedId]))];
  const [spans, atoms, originals, summaries] = await Promise.all([
    db().span.findMany({
      where: { sessionId, id: { in: ids } },
      select: { id: true, class: true, occurredAt: true, kind: true },
    }),
    loadAtoms(db(), sessionId, ids),
    loadOriginalFacts(db(), sessionId, ids),
    // Only the summaries' texts are read: the originals they replaced are known by their atoms.
    db().spanOriginal.findMany({
      where: { sessionId, spanId: { in: ids }, span: { kind: "SUMMARY" } },
      select: { spanId: true, bytes: true },
    }),
  ]);
  const texts = new Map(summaries.flatMap((o) => (o.bytes ? [[o.spanId, new TextDecoder().decode(o.bytes)] as const] : [])));
  const facts = new Map<string, LineageSpanFacts>(
    spans.map((s) => [
      s.id,
      {
        class: s.class,
        atoms: atoms.get(s.id) ?? [],
        original: originals.get(s.id) ?? null,
        occurredAt: s.occurredAt,
        ...(texts.has(s.id) ? { text: texts.get(s.id)! } : {}),
      },
    ]),
  );
  return computeLineage(summaryId, graph as LineageGraph, facts, policy, now);
}
