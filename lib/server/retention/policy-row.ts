import type { RetentionPolicy as PolicyRow } from "@/lib/db/generated/client";
import type { RetentionPolicy } from "@/lib/evidence/types";

/** The columns a policy is read from. */
export type PolicyColumns = Pick<
  PolicyRow,
  | "evidenceHorizonDays"
  | "ttlNarrativeDays"
  | "ttlStructuredDays"
  | "ttlSideEffectingDays"
  | "evidenceWorkloads"
  | "systemConfigPrefixes"
>;

export function policyFromRow(row: PolicyColumns): RetentionPolicy {
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
