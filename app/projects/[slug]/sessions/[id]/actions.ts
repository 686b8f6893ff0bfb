"use server";

import { z } from "zod";
import type { RunGateData } from "@/components/RunGateForm";
import { defineAction } from "@/lib/auth/define-action";
import { requireSessionsOfProject } from "@/lib/server/dashboard";
import { reclaimSeqRange } from "@/lib/server/gate";

const RunGateForm = z
  .object({
    sessionId: z.uuid(),
    fromSeq: z.coerce.number().int().min(0),
    toSeq: z.coerce.number().int().min(0),
    text: z.string().min(1, "write the candidate summary").max(100_000),
    pointers: z.literal("on").optional(),
    honest: z.literal("on").optional(),
    commit: z.literal("on").optional(),
  })
  .refine((f) => f.toSeq >= f.fromSeq, { message: "must not be below From", path: ["toSeq"] });

/** Evaluates a compaction of a seq range as a dry run (default) or for real, as an operator. */
export const runGateAction = defineAction<z.output<typeof RunGateForm>, RunGateData>({
  permission: "gate:run",
  input: RunGateForm,
  revalidate: (input) => (input.commit === "on" ? [`/sessions/${input.sessionId}`] : []),
  run: async ({ input, user, actor, project }) => {
    await requireSessionsOfProject(project.id, [input.sessionId]);
    const outcome = await reclaimSeqRange({
      sessionId: input.sessionId,
      fromSeq: input.fromSeq,
      toSeq: input.toSeq,
      text: input.text,
      pointers: input.pointers === "on",
      honest: input.honest === "on",
      dryRun: input.commit !== "on",
      requester: `user:${user.email}`,
      actor,
    });
    return {
      message: outcome.dryRun ? "Dry run: nothing was recorded." : "Recorded.",
      data: {
        dryRun: outcome.dryRun,
        summarySpanId: outcome.summarySpanId,
        decisions: outcome.decisions.map((d) => ({ spanId: d.spanId, verdict: d.verdict, cell: d.cell, reason: d.reason })),
      },
    };
  },
});
