/**
 * Where a model call flagged `gen_ai.conversation.compacted` says the conversation was compacted
 * (the conventions' own signal), and whether another report of that compaction stands for it.
 */
import type { DraftSpan } from "../shared/builder";
import type { OtlpSpan } from "./otlp-records";
import { CONVERSATION_COMPACTED } from "./spans";

/**
 * A span to be, or a summary, at a point in time; sorted before seqs are given. `compactedBefore`:
 * a model call flagged `gen_ai.conversation.compacted`, a compaction before it that becomes a
 * summary only if nothing else reports that compaction (see resolveCompactedFlags).
 */
export type Item =
  | { time: bigint; order: number; source: OtlpSpan; span: Omit<DraftSpan, "occurredAt"> }
  | { time: bigint; order: number; source: OtlpSpan; summary: string; replacedSpanIds?: string[] }
  | { time: bigint; order: number; source: OtlpSpan; compactedBefore: true };
type Resolved = Exclude<Item, { compactedBefore: true }>;

/**
 * A model call flagged `gen_ai.conversation.compacted` after one that was not is where the
 * conversation was compacted. When a summary was reported between the previous call and this one
 * (a compact span or event, a compaction message part), that summary is the compaction; otherwise
 * it becomes an empty summary there, replacing everything since the previous compaction. A call
 * flagged after a flagged call sees the same compacted view and marks nothing new. Items sorted.
 */
/** `modelCalls`: each model call's start and whether it was flagged; `issue` notes an inferred compaction. */
export function resolveCompactedFlags(
  items: readonly Item[],
  modelCalls: ReadonlyArray<{ start: bigint; compacted: boolean }>,
  issue: (position: number, message: string) => void,
): Resolved[] {
  const requests = [...modelCalls].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const summaryTimes = items.flatMap((i) => ("summary" in i ? [i.time] : []));
  const resolved: Resolved[] = [];
  for (const item of items) {
    if (!("compactedBefore" in item)) {
      resolved.push(item);
      continue;
    }
    const previous = requests.filter((r) => r.start < item.time).at(-1);
    if (previous?.compacted) continue;
    if (summaryTimes.some((t) => t <= item.time && (previous === undefined || t >= previous.start))) continue;
    issue(
      item.source.position,
      `${CONVERSATION_COMPACTED}: this model call's input is a compacted view of the conversation, but no summary of it was reported; an empty SUMMARY span marks the compaction`,
    );
    resolved.push({ time: item.time, order: item.order, source: item.source, summary: "" });
  }
  return resolved;
}
