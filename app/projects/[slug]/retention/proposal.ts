/**
 * A proposal handed to the retention page's what-if by a form that shows no preview (the settings
 * page's policy, a rollback from the history page): read from the query string and simulated on
 * arrival, so the owner sees what it deletes and breaks before the confirmation can save it.
 */
import { AppError } from "@/lib/core/errors";
import type { RawSearchParams } from "@/lib/server/dashboard";
import { currentPolicy, diffPolicies, policyOfVersion } from "@/lib/server/retention";
import { DEFAULT_HORIZON_DAYS, simulateRetention } from "@/lib/server/what-if";
import type { HandedProposal } from "@/components/RetentionWhatIf";
import { policyFromSearch } from "../policy-form";
import { simulationSessionNames } from "./simulation-names";

/**
 * The proposal in the address, simulated; null when there is none, or when it no longer differs
 * from the policy in force (it was saved: the confirmation's revalidation renders the same address).
 */
export async function proposalFromSearch(projectId: string, search: RawSearchParams): Promise<HandedProposal | null> {
  const rollback =
    typeof search.rollbackOf === "string" && /^\d{1,9}$/.test(search.rollbackOf) ? Number(search.rollbackOf) : null;
  const proposed = rollback === null ? policyFromSearch(search) : policyOfVersion(projectId, rollback);
  if (proposed === null) return null;
  const [policy, current] = await Promise.all([proposed, currentPolicy(projectId)]);
  if (!policy || diffPolicies(current.policy, policy).length === 0) return null;
  // A proposal the simulation refuses (an invalid policy) is shown in the form, unsimulated.
  const simulation = await simulateRetention(projectId, policy, DEFAULT_HORIZON_DAYS).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "VALIDATION_FAILED") return null;
    throw error;
  });
  const sessionNames = simulation ? await simulationSessionNames(projectId, simulation) : {};
  return { policy, rollbackOf: rollback, simulation, sessionNames };
}
