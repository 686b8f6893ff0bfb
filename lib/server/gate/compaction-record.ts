/** The compaction a committed reclamation records: an event of its own, asked of the gate or not. */
import type { DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import type { GateDecision } from "@/lib/evidence/gate";
import type { CandidateSummary } from "@/lib/evidence/types";

export async function recordCompaction(
  tx: DbTx,
  input: {
    projectId: string;
    sessionId: string;
    reclamationId: string;
    summarySpanId: string | null;
    observed: boolean;
    decisions: readonly GateDecision[];
    replacedCount: number;
    summary: CandidateSummary;
    requester: string;
    at: Date;
  },
): Promise<void> {
  // Asked: the spans the gate refused. Observed: those it would have refused (all were replaced).
  const refusedCount = input.decisions.filter((d) => d.verdict === "REFUSE").length;
  // A refused summary is kept as sent so the refusal can show what it refused and what it lacked;
  // one the gate let through whole lives on as its summary span, under that span's retention.
  const kept = refusedCount > 0;
  await tx.compaction.create({
    data: {
      sessionId: input.sessionId,
      id: input.reclamationId,
      projectId: input.projectId,
      summarySpanId: input.summarySpanId,
      asked: !input.observed,
      replacedCount: input.replacedCount,
      refusedCount,
      requester: input.requester,
      occurredAt: input.at,
      ...(kept
        ? {
            summaryText: input.summary.text,
            summaryPointers: input.summary.pointers as unknown as Prisma.InputJsonValue,
            ...(input.summary.omissions ? { summaryManifest: input.summary.omissions as unknown as Prisma.InputJsonValue } : {}),
          }
        : {}),
    },
  });
}
