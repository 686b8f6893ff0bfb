/** The what-if's statements for a proposal, labelled, for EXPLAIN in the retention benchmark. */
import type { Prisma } from "@/lib/db/generated/client";
import { DAY_MS } from "@/lib/evidence/policy";
import { applyPolicyPatch, currentPolicy, type PolicyPatch } from "@/lib/server/retention";
import { replaySql } from "./replay";
import { scanQueriesToExplain } from "./scan";

export async function whatIfQueriesToExplain(
  projectId: string,
  patch: PolicyPatch,
  horizonDays: number,
  now = new Date(),
): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const { policy: current } = await currentPolicy(projectId);
  const proposed = applyPolicyPatch(current, patch);
  const end = new Date(now.getTime() + horizonDays * DAY_MS);
  return [
    ...(await scanQueriesToExplain(projectId, current, proposed, now, end)),
    { label: "what-if: gate decisions of the last 30 days replayed", sql: replaySql(projectId, current, proposed, now) },
  ];
}
