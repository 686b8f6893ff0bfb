"use server";

import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { EVIDENTIAL_CLASSES } from "@/lib/evidence/types";
import { saveNote } from "@/components/policy-labels";
import { POLICY_FIELDS, policyFromForm } from "../policy-form";
import { defineAction } from "@/lib/auth/define-action";
import { DAY_MS } from "@/lib/evidence/policy";
import { cellOriginals, requireSessionsOfProject } from "@/lib/server/dashboard";
import type { Actor } from "@/lib/server/audit";
import { extendOriginals, pinOriginals } from "@/lib/server/provenance";
import { diffPolicies, policyOfVersion, rollbackPolicy, savePolicyVersion } from "@/lib/server/retention";
import { MAX_HORIZON_DAYS, type Simulation, simulateRetention } from "@/lib/server/what-if";
import { previewHref, refusedForPreview, unlessHandedToPreview } from "./preview-href";
import { simulationSessionNames } from "./simulation-names";

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

/** How a bulk act's outcome reads: how many changed, and why the rest did not. */
function bulkMessage(act: "pin" | "extend", days: number, outcome: { requested: number; changed: unknown[] }, of?: number) {
  const verb = act === "pin" ? "Pinned" : `Extended to ${days} days`;
  const rest = outcome.requested - outcome.changed.length;
  return `${verb}: ${outcome.changed.length} of ${outcome.requested}${of !== undefined && of > outcome.requested ? ` (the first of ${of} in the cell)` : ""}.${
    rest > 0
      ? ` ${rest} not changed (${act === "pin" ? "already pinned" : "already kept as long or longer"}, or already deleted).`
      : ""
  }`;
}

function runBulk(
  projectId: string,
  input: { act: "pin" | "extend"; days: number; reason?: string | undefined },
  keys: Array<{ sessionId: string; spanId: string }>,
  actor: Actor,
) {
  return input.act === "pin"
    ? pinOriginals(projectId, keys, actor, input.reason)
    : extendOriginals(projectId, keys, actor, new Date(Date.now() + input.days * DAY_MS), input.reason);
}

const bulkPermission = (form: FormData) => (form.get("act") === "extend" ? "originals:extend" : "originals:pin");

/**
 * Pin or extend many originals at once (the ones ticked in the at-risk list): one statement and one
 * audit row naming every span, with a reason.
 */
export const bulkRetentionAction = defineAction({
  permission: bulkPermission,
  input: BulkForm,
  lists: ["original"],
  revalidate: ["/retention", "/sessions/[id]"],
  run: async ({ input, actor, project }) => {
    await requireSessionsOfProject(
      project.id,
      input.original.map((o) => o.sessionId),
    );
    return bulkMessage(input.act, input.days, await runBulk(project.id, input, input.original, actor));
  },
});

const CellForm = z.object({
  act: z.enum(["pin", "extend"]),
  sessionId: z.uuid(),
  class: z.enum(EVIDENTIAL_CLASSES),
  provenance: z.enum(["DURABLE", "EXPIRING"]),
  days: z.coerce.number().int().min(1).max(36_500).default(400),
  reason: z.string().max(1000).optional(),
});

/**
 * Pin or extend a whole grid cell of a session: the cell's held originals as they are when the act
 * runs (read by the cell, not sent by the page), in one statement with one audit row.
 */
export const cellRetentionAction = defineAction({
  permission: bulkPermission,
  input: CellForm,
  revalidate: ["/retention", "/sessions/[id]"],
  run: async ({ input, actor, project }) => {
    const cell = await cellOriginals(project.id, input.sessionId, { class: input.class, provenance: input.provenance });
    if (cell.keys.length === 0)
      throw new AppError("VALIDATION_FAILED", "This cell holds no originals that can be kept", {
        fields: [{ path: "provenance", message: "no held originals" }],
      });
    return bulkMessage(input.act, input.days, await runBulk(project.id, input, cell.keys, actor), cell.total);
  },
});

/**
 * What-if: reads only, so anyone who may read the project may run it. A handed rollback's form sends
 * the version it restores: the answer says whether the simulated policy is still that version's.
 */
export const simulateAction = defineAction({
  permission: "read",
  input: z.object({
    ...POLICY_FIELDS,
    horizonDays: z.coerce.number().int().min(1).max(MAX_HORIZON_DAYS).default(90),
    rollbackOf: z.coerce.number().int().min(0).optional(),
  }),
  run: async ({ input, project }) => {
    const policy = policyFromForm(input);
    const [data, restored] = await Promise.all([
      simulateRetention(project.id, policy, input.horizonDays),
      input.rollbackOf === undefined ? null : policyOfVersion(project.id, input.rollbackOf),
    ]);
    const stillRestores = restored !== null && diffPolicies(restored, policy).length === 0;
    const rollbackOf = stillRestores ? (input.rollbackOf ?? null) : null;
    const sessionNames = await simulationSessionNames(project.id, data);
    return { message: `Simulated ${input.horizonDays} days.`, data: { ...(data as Simulation), rollbackOf, sessionNames } };
  },
});

/**
 * Saves the previewed policy as the next version; a change that gives up evidence needs the reason
 * typed. A previewed rollback (`rollbackOf`) is saved as the rollback it is, when the previewed
 * policy is that version's.
 */
export const savePolicyAction = defineAction({
  permission: "policy:write",
  input: z.object({
    ...POLICY_FIELDS,
    version: z.coerce.number().int().min(0),
    rollbackOf: z.coerce.number().int().min(0).optional(),
    reason: z.string().max(1000).optional(),
  }),
  revalidate: ["/retention", "/retention/history"],
  run: async ({ input, actor, project }) => {
    const policy = policyFromForm(input);
    const saved =
      input.rollbackOf === undefined
        ? await savePolicyVersion(project.id, { policy, expectedVersion: input.version, reason: input.reason }, actor)
        : await rollbackPolicy(
            project.id,
            { toVersion: input.rollbackOf, expectedVersion: input.version, reason: input.reason, previewed: policy },
            actor,
          );
    return {
      message: `Saved as version ${saved.version}.${saveNote(saved.warnings, saved.changes)}`,
      data: { version: saved.version },
    };
  },
});

/**
 * Saves an earlier version's policy again, as a new version, when that keeps evidence at least as
 * long; a rollback that gives up evidence is handed to the what-if (`data.preview`) instead.
 */
export const rollbackPolicyAction = defineAction({
  permission: "policy:write",
  input: z.object({
    toVersion: z.coerce.number().int().min(0),
    version: z.coerce.number().int().min(0),
    reason: z.string().max(1000).optional(),
  }),
  revalidate: unlessHandedToPreview(["/retention", "/retention/history"]),
  run: async ({ input, actor, project }) => {
    try {
      const saved = await rollbackPolicy(
        project.id,
        { toVersion: input.toVersion, expectedVersion: input.version, reason: input.reason, requirePreview: true },
        actor,
      );
      return `Rolled back to version ${input.toVersion}: saved as version ${saved.version}.`;
    } catch (error) {
      if (!refusedForPreview(error)) throw error;
      return {
        message: `Not rolled back: ${(error as Error).message}. Opening the preview…`,
        data: { preview: previewHref(project.slug, { rollbackOf: input.toVersion }) },
      };
    }
  },
});
