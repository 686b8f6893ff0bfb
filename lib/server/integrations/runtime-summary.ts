/**
 * A runtime's own compaction summary, as its post-compaction hook hands it over (Claude Code's
 * PostCompact `compact_summary`): stored verbatim as a summary span of the session, linked as an
 * observed compaction to the spans it replaced, the way a transcript's compaction record is linked.
 * The transcript's own summary record says the same thing wrapped in the runtime's preamble; the
 * hook's text is the summary exactly as the model wrote it.
 */
import { AppError } from "@/lib/core/errors";
import { sha256Hex } from "@/lib/core/hash";
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import { db } from "@/lib/db/client";
import { reclaim } from "@/lib/server/gate";

export interface RuntimeSummaryInput {
  text: string;
  occurredAt: Date;
  /** What the transcript's newest compaction replaced, when the hook read it; else every span not yet replaced. */
  replacedSeqs?: number[];
}

export interface RuntimeSummaryResult {
  spanId: string;
  replaced: number;
  /** False when the same summary was already stored (the hook ran again). */
  stored: boolean;
}

/** The summary span, or null when nothing was left for it to replace (so nothing was stored). */
export async function recordRuntimeSummary(
  projectId: string,
  sessionId: string,
  input: RuntimeSummaryInput,
  requester: string,
): Promise<RuntimeSummaryResult | null> {
  const bytes = new TextEncoder().encode(input.text);
  if (bytes.byteLength > MAX_SPAN_BODY_BYTES)
    throw new AppError("VALIDATION_FAILED", `runtimeSummary.text is over the ${MAX_SPAN_BODY_BYTES}-byte limit on one span`, {
      details: { field: "runtimeSummary.text" },
    });
  const sha256 = sha256Hex(bytes);
  const existing = await db().span.findFirst({
    where: { sessionId, kind: "SUMMARY", seq: null, sha256 },
    select: { id: true, _count: { select: { replaces: true } } },
  });
  if (existing) return { spanId: existing.id, replaced: existing._count.replaces, stored: false };
  const open = await db().span.findMany({
    where: {
      sessionId,
      transcriptState: { in: ["VERBATIM", "PRESERVED"] },
      ...(input.replacedSeqs ? { seq: { in: input.replacedSeqs } } : {}),
    },
    select: { id: true, sha256: true, byteLength: true },
    orderBy: { seq: "asc" },
  });
  if (open.length === 0) return null;
  const result = await reclaim({
    projectId,
    sessionId,
    selection: { spanIds: open.map((s) => s.id) },
    summary: {
      text: input.text,
      // Custodian holds every one of these spans: the summary points at each whole original.
      pointers: open.map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: s.byteLength, sha256: s.sha256 })),
    },
    dryRun: false,
    requester,
    at: input.occurredAt,
    observed: true,
  });
  return result.summarySpanId ? { spanId: result.summarySpanId, replaced: open.length, stored: true } : null;
}
