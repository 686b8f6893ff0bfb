/**
 * What changed between two retention policies, field by field, and whether the change gives up
 * evidence (a shorter TTL or horizon, a system-config prefix removed): such a change is saved only
 * after a preview and with a reason; a change that only keeps things longer saves directly.
 */
import { EVIDENTIAL_CLASSES, type RetentionPolicy } from "@/lib/evidence/types";

export interface PolicyFieldChange {
  /** Dotted path: "evidenceHorizonDays", "ttlDays.SIDE_EFFECTING", "systemConfigPrefixes", ... */
  field: string;
  before: unknown;
  after: unknown;
  /** This change alone gives up evidence (shorter, or a prefix removed). */
  narrowing: boolean;
  /** For the prefix list: what was added and removed. */
  added?: string[];
  removed?: string[];
}

export function diffPolicies(before: RetentionPolicy, after: RetentionPolicy): PolicyFieldChange[] {
  const changes: PolicyFieldChange[] = [];
  if (before.evidenceHorizonDays !== after.evidenceHorizonDays) {
    changes.push({
      field: "evidenceHorizonDays",
      before: before.evidenceHorizonDays,
      after: after.evidenceHorizonDays,
      narrowing: after.evidenceHorizonDays < before.evidenceHorizonDays,
    });
  }
  for (const cls of EVIDENTIAL_CLASSES) {
    const [b, a] = [before.ttlDays[cls], after.ttlDays[cls]];
    if (b !== a) changes.push({ field: `ttlDays.${cls}`, before: b, after: a, narrowing: a < b });
  }
  if (before.evidenceWorkloads !== after.evidenceWorkloads) {
    // Declaring no evidence workloads lets structured spans go without a durable pointer.
    changes.push({
      field: "evidenceWorkloads",
      before: before.evidenceWorkloads,
      after: after.evidenceWorkloads,
      narrowing: !after.evidenceWorkloads,
    });
  }
  const kept = new Set(after.systemConfigPrefixes);
  const had = new Set(before.systemConfigPrefixes);
  const removed = before.systemConfigPrefixes.filter((p) => !kept.has(p));
  const added = after.systemConfigPrefixes.filter((p) => !had.has(p));
  if (removed.length > 0 || added.length > 0) {
    changes.push({
      field: "systemConfigPrefixes",
      before: before.systemConfigPrefixes,
      after: after.systemConfigPrefixes,
      narrowing: removed.length > 0,
      added,
      removed,
    });
  }
  return changes;
}

/** The change gives up evidence somewhere: it needs a preview and a reason. */
export function isNarrowing(changes: readonly PolicyFieldChange[]): boolean {
  return changes.some((c) => c.narrowing);
}

/** A proposal as the API takes it: any field may be left out, and keeps its current value. */
export interface PolicyPatch {
  evidenceHorizonDays?: number;
  ttlDays?: Partial<RetentionPolicy["ttlDays"]>;
  evidenceWorkloads?: boolean;
  systemConfigPrefixes?: string[];
}

export function applyPolicyPatch(current: RetentionPolicy, patch: PolicyPatch): RetentionPolicy {
  return {
    evidenceHorizonDays: patch.evidenceHorizonDays ?? current.evidenceHorizonDays,
    ttlDays: {
      NARRATIVE: patch.ttlDays?.NARRATIVE ?? current.ttlDays.NARRATIVE,
      STRUCTURED: patch.ttlDays?.STRUCTURED ?? current.ttlDays.STRUCTURED,
      SIDE_EFFECTING: patch.ttlDays?.SIDE_EFFECTING ?? current.ttlDays.SIDE_EFFECTING,
    },
    evidenceWorkloads: patch.evidenceWorkloads ?? current.evidenceWorkloads,
    systemConfigPrefixes: [...(patch.systemConfigPrefixes ?? current.systemConfigPrefixes)],
  };
}
