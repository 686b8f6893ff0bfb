"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";
import { runAction, type ActionResult } from "@/lib/auth/action-result";
import { authorize } from "@/lib/auth/session";
import { DAY_MS } from "@/lib/evidence/policy";
import { pinOriginal, setOriginalExpiry } from "@/lib/server/provenance";
import { projectOfSpan } from "@/lib/server/dashboard";

const BulkForm = z.object({
  act: z.enum(["pin", "extend"]),
  spanIds: z.array(z.uuid()).min(1, "select at least one original").max(1000),
  days: z.coerce.number().int().min(1).max(36_500).default(400),
  reason: z.string().max(1000).optional(),
});

/** Pin or extend many originals at once; each is its own audited act, and one failure stops none of the others. */
export async function bulkRetentionAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const act = form.get("act");
    const { actor } = await authorize(act === "pin" ? "originals:pin" : "originals:extend");
    const input = parseWith(
      BulkForm,
      { act, spanIds: form.getAll("spanId"), days: form.get("days") || undefined, reason: form.get("reason") || undefined },
      "The form",
    );
    let done = 0;
    const failed: string[] = [];
    for (const spanId of input.spanIds) {
      try {
        const ref = { projectId: await projectOfSpan(spanId), spanId };
        if (input.act === "pin") await pinOriginal(ref, actor, input.reason);
        else
          await setOriginalExpiry(ref, actor, new Date(Date.now() + input.days * DAY_MS), input.reason, new Date(), {
            allowShorten: false,
          });
        done += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        failed.push(`${spanId.slice(0, 8)}: ${error.message}`);
      }
    }
    revalidatePath("/retention");
    const verb = input.act === "pin" ? "Pinned" : `Extended to ${input.days} days`;
    return `${verb}: ${done} of ${input.spanIds.length}.${failed.length > 0 ? ` Not changed: ${failed.join("; ")}` : ""}`;
  });
}
