"use server";

import { z } from "zod";
import { can } from "@/lib/core/permissions";
import { defineAction } from "@/lib/auth/define-action";
import { DAY_MS } from "@/lib/evidence/policy";
import { pinOriginal, setOriginalExpiry, unpinOriginal } from "@/lib/server/provenance";

const SpanForm = z.object({ spanId: z.uuid(), reason: z.string().max(1000).optional() });
// Moving an expiry either way is written to the audit log with why, as the bulk extend is.
const ExpiryForm = SpanForm.extend({
  days: z.coerce.number().int().min(1).max(36_500),
  reason: z.string().trim().min(1, "give a reason: the audit log records why").max(1000),
});

const spanPage = (input: { spanId: string }) => [`/spans/${input.spanId}`];

/** Legal hold: the original never expires while pinned. */
export const pinAction = defineAction({
  permission: "originals:pin",
  input: SpanForm,
  revalidate: spanPage,
  run: async ({ input, actor, project }) => {
    await pinOriginal({ projectId: project.id, spanId: input.spanId }, actor, input.reason);
    return "Pinned: the original is under legal hold.";
  },
});

/** Lifting a hold is an admin act with a reason. */
export const unpinAction = defineAction({
  permission: "originals:unpin",
  input: SpanForm,
  revalidate: spanPage,
  run: async ({ input, actor, project }) => {
    await unpinOriginal({ projectId: project.id, spanId: input.spanId }, actor, input.reason ?? "");
    return "Unpinned: the original follows its TTL again.";
  },
});

/** Keep the original until N days from now: an extension for operators, a shortening for admins only. */
export const setExpiryAction = defineAction({
  permission: "originals:extend",
  input: ExpiryForm,
  revalidate: spanPage,
  run: async ({ input, actor, project, role }) => {
    const result = await setOriginalExpiry(
      { projectId: project.id, spanId: input.spanId },
      actor,
      new Date(Date.now() + input.days * DAY_MS),
      input.reason,
      new Date(),
      { allowShorten: can(role, "originals:shorten") },
    );
    return result.shortened
      ? `Shortened: the original now expires in ${input.days} days.`
      : `Extended: the original now expires in ${input.days} days.`;
  },
});
