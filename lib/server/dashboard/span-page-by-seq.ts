import type { TimelineFilter } from "@/lib/server/provenance";

/**
 * The unfiltered transcript's page found by seq rather than by offset when the session's seqs run
 * without a gap (its kept seq_count, seq_min and seq_max say so): the n-th span in order is then
 * seq_min + n, so a middle page of 100,000 spans reads its 200 rows instead of walking 50,000
 * index entries. Summaries (no seq) come after the seqs, or first when turned round; a page that
 * reaches them, any filter, or a gap keeps the offset.
 */
export function pageBySeq(
  session: { spanCount: number; seqCount: number; seqMin: number | null; seqMax: number | null },
  filter: TimelineFilter,
  read: { offset: number; limit: number; descending: boolean },
): { filter: TimelineFilter; read: { offset: number; limit: number; descending: boolean } } {
  const { seqCount, seqMin, seqMax } = session;
  const dense = seqMin !== null && seqMax !== null && seqMax - seqMin + 1 === seqCount;
  if (!dense || Object.keys(filter).length > 0) return { filter, read };
  const unsequenced = session.spanCount - seqCount;
  if (!read.descending) {
    if (read.offset + read.limit > seqCount) return { filter, read };
    return { filter: { seqFrom: seqMin + read.offset }, read: { ...read, offset: 0 } };
  }
  if (read.offset < unsequenced) return { filter, read };
  return { filter: { seqTo: seqMax - (read.offset - unsequenced) }, read: { ...read, offset: 0 } };
}
