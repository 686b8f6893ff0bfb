"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { parseWith } from "@/lib/core/validation";
import type { RunGateResult } from "@/components/RunGateForm";
import { toAppError } from "@/lib/core/errors";
import { authorize } from "@/lib/auth/session";
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
export async function runGateAction(_: RunGateResult | null, form: FormData): Promise<RunGateResult> {
  try {
    const { user } = await authorize("gate:run");
    const input = parseWith(RunGateForm, Object.fromEntries(form.entries()), "The form");
    const outcome = await reclaimSeqRange({
      sessionId: input.sessionId,
      fromSeq: input.fromSeq,
      toSeq: input.toSeq,
      text: input.text,
      pointers: input.pointers === "on",
      honest: input.honest === "on",
      dryRun: input.commit !== "on",
      requester: `user:${user.email}`,
    });
    if (!outcome.dryRun) revalidatePath(`/sessions/${input.sessionId}`);
    return {
      ok: true,
      dryRun: outcome.dryRun,
      summarySpanId: outcome.summarySpanId,
      decisions: outcome.decisions.map((d) => ({ spanId: d.spanId, verdict: d.verdict, cell: d.cell, reason: d.reason })),
    };
  } catch (error) {
    const appError = toAppError(error);
    return { ok: false, error: { code: appError.code, message: appError.message } };
  }
}
