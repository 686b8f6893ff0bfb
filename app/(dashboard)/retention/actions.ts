"use server";

import { z } from "zod";
import { isUuid } from "@/lib/core/ids";
import { defineAction } from "@/lib/auth/define-action";
import { DAY_MS } from "@/lib/evidence/policy";
import { extendOriginals, pinOriginals } from "@/lib/server/provenance";

/** An original as the bulk forms name it: "<session id>:<span id>". */
const OriginalField = z.string().transform((value, ctx) => {
  const [sessionId = "", spanId = ""] = value.split(":");
  if (!isUuid(sessionId) || !isUuid(spanId)) {
    ctx.addIssue({ code: "custom", message: "not a session:span pair" });
    return z.NEVER;
  }
  return { sessionId, spanId };
});

const BulkForm = z.object({
  act: z.enum(["pin", "extend"]),
  original: z.array(OriginalField).max(10_000),
  days: z.coerce.number().int().min(1).max(36_500).default(400),
  reason: z.string().max(1000).optional(),
});

/**
 * Pin or extend many originals at once (a grid cell, or the ones ticked in the at-risk list): one
 * statement and one audit row naming every span, with a reason.
 */
export const bulkRetentionAction = defineAction({
  permission: (form) => (form.get("act") === "extend" ? "originals:extend" : "originals:pin"),
  input: BulkForm,
  lists: ["original"],
  revalidate: ["/retention", "/sessions/[id]"],
  run: async ({ input, actor }) => {
    const outcome =
      input.act === "pin"
        ? await pinOriginals(input.original, actor, input.reason)
        : await extendOriginals(input.original, actor, new Date(Date.now() + input.days * DAY_MS), input.reason);
    const verb = input.act === "pin" ? "Pinned" : `Extended to ${input.days} days`;
    const rest = outcome.requested - outcome.changed.length;
    return `${verb}: ${outcome.changed.length} of ${outcome.requested}.${
      rest > 0
        ? ` ${rest} not changed (${input.act === "pin" ? "already pinned" : "already kept as long or longer"}, or already deleted).`
        : ""
    }`;
  },
});
