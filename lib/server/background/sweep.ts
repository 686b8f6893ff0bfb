import { forgetUnreadableVerdicts } from "@/lib/server/questions";
import { type SweepResult, sweep } from "@/lib/server/retention";

export interface MaintenanceResult extends SweepResult {
  /** Stored verdicts of evidence questions that no current question can read any more. */
  verdictsForgotten: number;
}

/**
 * One round of upkeep, as the schedule and `npm run sweep` run it: delete expired originals and
 * re-verify the oldest verified ones (retention), then forget stored question verdicts that no
 * current question can read (questions). Composed here so neither feature depends on the other.
 */
export async function runMaintenance(now = new Date()): Promise<MaintenanceResult> {
  const swept = await sweep(now);
  const verdictsForgotten = await forgetUnreadableVerdicts();
  return { ...swept, verdictsForgotten };
}
