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

/** The form's fields of a policy, as a query string (a proposal handed to the retention page's what-if). */
export function policySearch(policy: RetentionPolicy): URLSearchParams {
  const search = new URLSearchParams({
    evidenceHorizonDays: String(policy.evidenceHorizonDays),
    ttlNarrative: String(policy.ttlDays.NARRATIVE),
    ttlStructured: String(policy.ttlDays.STRUCTURED),
    ttlSideEffecting: String(policy.ttlDays.SIDE_EFFECTING),
    systemConfigPrefixes: policy.systemConfigPrefixes.join("\n"),
  });
  if (policy.evidenceWorkloads) search.set("evidenceWorkloads", "on");
  return search;
}

const ProposalSearch = z.object(POLICY_FIELDS);

/** A proposal read back from the query string; null when there is none or it does not read as one. */
export function policyFromSearch(search: Record<string, string | string[] | undefined>): RetentionPolicy | null {
  if (search.evidenceHorizonDays === undefined) return null;
  const single = Object.fromEntries(Object.entries(search).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = ProposalSearch.safeParse(single);
  return parsed.success ? policyFromForm(parsed.data) : null;
}
