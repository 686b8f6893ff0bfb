import type { DbTx } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { RetentionPolicy as PolicyRow } from "@/lib/db/generated/client";

export function policyFromRow(row: PolicyRow): RetentionPolicy {
  return {
    evidenceHorizonDays: row.evidenceHorizonDays,
    ttlDays: {
      NARRATIVE: row.ttlNarrativeDays,
      STRUCTURED: row.ttlStructuredDays,
      SIDE_EFFECTING: row.ttlSideEffectingDays,
    },
    evidenceWorkloads: row.evidenceWorkloads,
    systemConfigPrefixes: row.systemConfigPrefixes,
  };
}

export function policyToRow(policy: RetentionPolicy) {
  return {
    evidenceHorizonDays: policy.evidenceHorizonDays,
    ttlNarrativeDays: policy.ttlDays.NARRATIVE,
    ttlStructuredDays: policy.ttlDays.STRUCTURED,
    ttlSideEffectingDays: policy.ttlDays.SIDE_EFFECTING,
    evidenceWorkloads: policy.evidenceWorkloads,
    systemConfigPrefixes: [...policy.systemConfigPrefixes],
  };
}

/** The project's retention policy, or the defaults when it has not set one. */
export async function loadPolicy(tx: DbTx, projectId: string): Promise<RetentionPolicy> {
  const row = await tx.retentionPolicy.findUnique({ where: { projectId } });
  return row ? policyFromRow(row) : DEFAULT_POLICY;
}
