/**
 * A retention policy as the dashboard's forms send it (the settings page and the retention
 * page's what-if): the fields, with their ranges, and the policy they make.
 */
import { z } from "zod";
import type { RetentionPolicy } from "@/lib/evidence/types";

/** Every field of a policy, as typed into the form. */
export const POLICY_FIELDS = {
  evidenceHorizonDays: z.coerce.number().int().min(1).max(36_500),
  ttlNarrative: z.coerce.number().int().min(0).max(36_500),
  ttlStructured: z.coerce.number().int().min(0).max(36_500),
  ttlSideEffecting: z.coerce.number().int().min(0).max(36_500),
  evidenceWorkloads: z.literal("on").optional(),
  systemConfigPrefixes: z.string().max(20_000).default(""),
};

export function policyFromForm(input: {
  evidenceHorizonDays: number;
  ttlNarrative: number;
  ttlStructured: number;
  ttlSideEffecting: number;
  evidenceWorkloads?: "on";
  systemConfigPrefixes: string;
}): RetentionPolicy {
  return {
    evidenceHorizonDays: input.evidenceHorizonDays,
    ttlDays: { NARRATIVE: input.ttlNarrative, STRUCTURED: input.ttlStructured, SIDE_EFFECTING: input.ttlSideEffecting },
    evidenceWorkloads: input.evidenceWorkloads === "on",
    systemConfigPrefixes: input.systemConfigPrefixes
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean),
  };
}
