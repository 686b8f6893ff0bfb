/**
 * Where a change that gives up evidence goes from a form without a preview (the settings page, a
 * rollback from the history page): the retention page's what-if with the proposal filled in and
 * simulated, whose confirmation saves it with a reason.
 */
import type { FollowAddress } from "@/components/ActionForm";
import { projectHref } from "@/components/project-href";
import type { ActionOutcome } from "@/lib/auth/define-action";
import { toAppError } from "@/lib/core/errors";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { policySearch } from "../policy-form";

export function previewHref(slug: string, proposal: { policy: RetentionPolicy } | { rollbackOf: number }): string {
  const search =
    "policy" in proposal ? policySearch(proposal.policy) : new URLSearchParams({ rollbackOf: String(proposal.rollbackOf) });
  return projectHref(slug, `/retention?${search.toString()}#what-if`);
}

/** The save was refused only for want of a preview: the use case names the field "preview" alone. */
export function refusedForPreview(error: unknown): boolean {
  const fields = toAppError(error).fields;
  return fields?.length === 1 && fields[0]!.path === "preview";
}

/** The forms without a preview open the what-if their answer holds (`data.preview`) at once. */
export const FOLLOW_PREVIEW: FollowAddress = { key: "preview", label: "Preview the change" };

/**
 * The pages an act that may hand its change to the preview shows afresh: `paths` when it saved,
 * none when its answer carries the preview's address (it wrote nothing).
 */
export function unlessHandedToPreview(paths: readonly string[]) {
  return (_input: unknown, outcome: ActionOutcome<{ preview: string }>): readonly string[] =>
    typeof outcome === "object" && outcome.data?.preview ? [] : paths;
}
