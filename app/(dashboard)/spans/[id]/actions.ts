"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { can } from "@/lib/core/permissions";
import { parseWith } from "@/lib/core/validation";
import { runAction, type ActionResult } from "@/lib/auth/action-result";
import { authorize } from "@/lib/auth/session";
import { DAY_MS } from "@/lib/evidence/policy";
import { pinOriginal, setOriginalExpiry, unpinOriginal } from "@/lib/server/provenance";
import { projectOfSpan } from "@/lib/server/dashboard";

const SpanForm = z.object({ spanId: z.uuid(), reason: z.string().max(1000).optional() });
const ExpiryForm = SpanForm.extend({ days: z.coerce.number().int().min(1).max(36_500) });

function fields(form: FormData) {
  return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== ""));
}

/** Legal hold: the original never expires while pinned. */
export async function pinAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("originals:pin");
    const input = parseWith(SpanForm, fields(form), "The form");
    await pinOriginal({ projectId: await projectOfSpan(input.spanId), spanId: input.spanId }, actor, input.reason);
    revalidatePath(`/spans/${input.spanId}`);
    return "Pinned: the original is under legal hold.";
  });
}

/** Lifting a hold is an admin act with a reason. */
export async function unpinAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("originals:unpin");
    const input = parseWith(SpanForm, fields(form), "The form");
    await unpinOriginal({ projectId: await projectOfSpan(input.spanId), spanId: input.spanId }, actor, input.reason ?? "");
    revalidatePath(`/spans/${input.spanId}`);
    return "Unpinned: the original follows its TTL again.";
  });
}

/** Keep the original until N days from now: an extension for operators, a shortening for admins only. */
export async function setExpiryAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { user, actor } = await authorize("originals:extend");
    const input = parseWith(ExpiryForm, fields(form), "The form");
    const projectId = await projectOfSpan(input.spanId);
    const result = await setOriginalExpiry(
      { projectId, spanId: input.spanId },
      actor,
      new Date(Date.now() + input.days * DAY_MS),
      input.reason,
      new Date(),
      {
        allowShorten: can(user.role, "originals:shorten"),
      },
    );
    revalidatePath(`/spans/${input.spanId}`);
    return result.shortened
      ? `Shortened: the original now expires in ${input.days} days.`
      : `Extended: the original now expires in ${input.days} days.`;
  });
}
