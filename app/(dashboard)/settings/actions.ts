"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/core/permissions";
import { parseWith } from "@/lib/core/validation";
import { runAction, type ActionResult } from "@/lib/auth/action-result";
import { authorize } from "@/lib/auth/session";
import { createApiKey, revokeApiKey } from "@/lib/server/admin";
import { createUser, setUserRole } from "@/lib/server/admin";
import { updatePolicy } from "@/lib/server/retention";
import { AppError } from "@/lib/core/errors";

const entries = (form: FormData) => Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== ""));

export async function createKeyAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("keys:manage");
    const input = parseWith(
      z.object({ projectId: z.uuid(), name: z.string().min(1).max(100), role: z.enum(ROLES) }),
      entries(form),
      "The form",
    );
    const key = await createApiKey(input.projectId, input.name, input.role, actor);
    revalidatePath("/settings");
    return { message: `Created key "${key.name}" (${key.prefix}…). Copy it now: it is not shown again.`, secret: key.key };
  });
}

export async function revokeKeyAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("keys:manage");
    const input = parseWith(z.object({ keyId: z.uuid() }), entries(form), "The form");
    await revokeApiKey(input.keyId, actor);
    revalidatePath("/settings");
    return "Revoked: requests with this key now get 401.";
  });
}

export async function inviteUserAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    await authorize("users:manage");
    const input = parseWith(
      z.object({ email: z.string().min(3).max(320), name: z.string().max(200).optional(), role: z.enum(ROLES) }),
      entries(form),
      "The form",
    );
    const user = await createUser(input);
    revalidatePath("/settings");
    return {
      message: `Invited ${user.email} as ${user.role.toLowerCase()}. Give them this password once:`,
      secret: user.generatedPassword!,
    };
  });
}

export async function setRoleAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("users:manage");
    const input = parseWith(z.object({ userId: z.uuid(), role: z.enum(ROLES) }), entries(form), "The form");
    await setUserRole(input.userId, input.role, actor);
    revalidatePath("/settings");
    return `Role changed to ${input.role.toLowerCase()}.`;
  });
}

const PolicyForm = z.object({
  projectId: z.uuid(),
  evidenceHorizonDays: z.coerce.number(),
  ttlNarrative: z.coerce.number(),
  ttlStructured: z.coerce.number(),
  ttlSideEffecting: z.coerce.number(),
  evidenceWorkloads: z.literal("on").optional(),
  systemConfigPrefixes: z.string().max(20_000).default(""),
  cannedQuestions: z.string().max(100_000).default("{}"),
  reason: z.string().max(1000).optional(),
});

/** Retention policy changes are admin acts with a reason; the use case validates and audits. */
export async function updatePolicyAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("policy:write");
    const input = parseWith(PolicyForm, entries(form), "The form");
    let cannedQuestions: unknown;
    try {
      cannedQuestions = JSON.parse(input.cannedQuestions || "{}");
    } catch {
      throw new AppError("VALIDATION_FAILED", "The canned question edits are not valid JSON", {
        fields: [{ path: "cannedQuestions", message: "not JSON" }],
      });
    }
    const { warnings } = await updatePolicy(
      input.projectId,
      {
        policy: {
          evidenceHorizonDays: input.evidenceHorizonDays,
          ttlDays: { NARRATIVE: input.ttlNarrative, STRUCTURED: input.ttlStructured, SIDE_EFFECTING: input.ttlSideEffecting },
          evidenceWorkloads: input.evidenceWorkloads === "on",
          systemConfigPrefixes: input.systemConfigPrefixes
            .split("\n")
            .map((l) => l.trim())
            .filter(Boolean),
        },
        cannedQuestions,
      },
      actor,
      input.reason,
    );
    revalidatePath("/settings");
    return `Policy saved.${warnings.length > 0 ? ` Note: ${warnings.map((w) => w.message).join("; ")}` : ""}`;
  });
}
