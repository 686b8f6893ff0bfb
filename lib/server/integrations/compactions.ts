/**
 * A compaction the runtime already did (a hook after the fact, an OTLP compaction span), recorded
 * as observed: the summary linked to the spans it replaced, which then show as reclaimed with a
 * pointer rather than lost. A compaction already linked is left alone, so this is idempotent.
 */
import { db } from "@/lib/db/client";
import type { ImportedCompaction } from "@/lib/importers/shared/types";
import { reclaim } from "@/lib/server/gate";

export interface StoredSpanRef {
  id: string;
  sha256: string;
}

/** Links each compaction whose summary and replaced spans are stored; returns how many were linked now. */
export async function linkCompactions(
  projectId: string,
  sessionId: string,
  compactions: ImportedCompaction[],
  bySeq: Map<number, StoredSpanRef>,
  bodies: Map<number, Uint8Array>,
  requester: string,
): Promise<number> {
  let linked = 0;
  for (const compaction of compactions) {
    const summary = bySeq.get(compaction.summarySeq);
    const replaced = compaction.replacedSeqs
      .map((seq) => ({ seq, ref: bySeq.get(seq) }))
      .filter((r): r is { seq: number; ref: StoredSpanRef } => r.ref !== undefined);
    if (!summary || replaced.length === 0) continue;
    if ((await db().summaryLink.count({ where: { sessionId, summarySpanId: summary.id } })) > 0) continue;
    const already = await db().summaryLink.findMany({
      where: { sessionId, replacedSpanId: { in: replaced.map((r) => r.ref.id) } },
      select: { replacedSpanId: true },
    });
    const taken = new Set(already.map((a) => a.replacedSpanId));
    const open = replaced.filter((r) => !taken.has(r.ref.id));
    if (open.length === 0) continue;
    await reclaim({
      projectId,
      sessionId,
      selection: { spanIds: open.map((r) => r.ref.id) },
      summary: {
        text: new TextDecoder().decode(bodies.get(compaction.summarySeq)),
        pointers: open.map((r) => ({
          spanId: r.ref.id,
          byteStart: 0,
          byteEnd: bodies.get(r.seq)?.byteLength ?? 0,
          sha256: r.ref.sha256,
        })),
      },
      dryRun: false,
      requester,
      at: compaction.occurredAt,
      observed: true,
      summarySpanId: summary.id,
    });
    linked += 1;
  }
  return linked;
}
