import { db } from "@/lib/db/client";
import type { ImportedCompaction } from "@/lib/importers/shared/types";
import { reclaim } from "@/lib/server/gate";

/** A compaction of the file, with its summary's text (the one body kept past its window: the gate needs it). */
export interface KeptCompaction extends ImportedCompaction {
  summaryText: string;
}

/**
 * Records a session's compactions as ones the runtime did on its own (observed), after the spans
 * are committed: the spans they name are found by seq. Returns how many replaced spans the gate
 * would have refused to let go.
 */
export async function recordCompactions(
  projectId: string,
  sessionId: string,
  compactions: readonly KeptCompaction[],
  requester: string,
): Promise<number> {
  if (compactions.length === 0) return 0;
  const seqs = [...new Set(compactions.flatMap((c) => [c.summarySeq, ...c.replacedSeqs]))];
  const rows = await db().span.findMany({
    where: { sessionId, seq: { in: seqs } },
    select: { seq: true, id: true, sha256: true, byteLength: true },
  });
  const bySeq = new Map(rows.map((row) => [row.seq, row]));
  let refused = 0;
  for (const compaction of compactions) {
    const summary = bySeq.get(compaction.summarySeq);
    const replaced = compaction.replacedSeqs.map((seq) => bySeq.get(seq)).filter((s) => s !== undefined);
    if (!summary || replaced.length === 0) continue; // Nothing in the file to link: the summary stays without provenance.
    if ((await db().summaryLink.count({ where: { sessionId, summarySpanId: summary.id } })) > 0) continue;
    // The replaced spans are in the file, so Custodian holds them: the pointers resolve.
    const pointers = replaced.map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: s.byteLength, sha256: s.sha256 }));
    const result = await reclaim({
      projectId,
      sessionId,
      selection: { spanIds: replaced.map((s) => s.id) },
      summary: { text: compaction.summaryText, pointers },
      dryRun: false,
      requester,
      at: compaction.occurredAt,
      observed: true,
      summarySpanId: summary.id,
    });
    refused += result.decisions.filter((d) => d.verdict === "REFUSE").length;
  }
  return refused;
}
