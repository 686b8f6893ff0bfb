import { db } from "@/lib/db/client";
import { makeHonestSummary } from "@/lib/evidence/manifest";
import type { CandidateSummary, ProvenancePointer } from "@/lib/evidence/types";
import { loadAtoms } from "./reclaim";

/**
 * A summary as a compactor that knows Custodian would send it: its text, optionally pointers to
 * the whole of each replaced original, and optionally a manifest naming what the text drops.
 * Used by the demo and by the dashboard's "Run gate" to try a compaction.
 */
export async function candidateSummaryFor(
  sessionId: string,
  spanIds: string[],
  text: string,
  options: { pointers: boolean; honest?: boolean },
): Promise<CandidateSummary> {
  if (!options.pointers) return { text, pointers: [] };
  const spans = await db().span.findMany({
    where: { sessionId, id: { in: spanIds } },
    select: { id: true, byteLength: true, sha256: true },
  });
  const pointers: ProvenancePointer[] = spans.map((s) => ({
    spanId: s.id,
    byteStart: 0,
    byteEnd: s.byteLength,
    sha256: s.sha256,
  }));
  if (!options.honest) return { text, pointers };
  const atoms = await loadAtoms(db(), sessionId, spanIds);
  return makeHonestSummary([...atoms.values()].flat(), text, pointers);
}
