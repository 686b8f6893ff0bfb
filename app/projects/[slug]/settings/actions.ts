"use server";

import { z } from "zod";
import { ROLES } from "@/lib/core/permissions";
import { defineAction } from "@/lib/auth/define-action";
import { POLICY_FIELDS, policyFromForm } from "../policy-form";
import { createApiKey, createUser, revokeApiKey, setUserRole } from "@/lib/server/admin";
import { updatePolicy } from "@/lib/server/retention";

const SETTINGS = ["/settings"];

export const createKeyAction = defineAction({
  permission: "keys:manage",
  input: z.object({ projectId: z.uuid(), name: z.string().min(1).max(100), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor }) => {
    const key = await createApiKey(input.projectId, input.name, input.role, actor);
    return { message: `Created key "${key.name}" (${key.prefix}…). Copy it now: it is not shown again.`, secret: key.key };
  },
});

export const revokeKeyAction = defineAction({
  permission: "keys:manage",
  input: z.object({ keyId: z.uuid() }),
  revalidate: SETTINGS,
  run: async ({ input, actor }) => {
    await revokeApiKey(input.keyId, actor);
    return "Revoked: requests with this key now get 401.";
  },
});

export const inviteUserAction = defineAction({
  permission: "users:manage",
  input: z.object({ email: z.string().min(3).max(320), name: z.string().max(200).optional(), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor }) => {
    const user = await createUser(input, actor);
    return {
      message: `Invited ${user.email} as ${user.role.toLowerCase()}. Give them this password once:`,
      secret: user.generatedPassword!,
    };
  },
});

export const setRoleAction = defineAction({
  permission: "users:manage",
  input: z.object({ userId: z.uuid(), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor }) => {
    await setUserRole(input.userId, input.role, actor);
    return `Role changed to ${input.role.toLowerCase()}.`;
  },
});

/** The canned-question edits: a JSON object in a text area. */
const CannedQuestionsField = z
  .string()
  .max(100_000)
  .default("{}")
  .transform((text, ctx) => {
    try {
      return JSON.parse(text || "{}") as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "not JSON" });
      return z.NEVER;
    }
  });

const PolicyForm = z.object({
  ...POLICY_FIELDS,
  cannedQuestions: CannedQuestionsField,
  reason: z.string().max(1000).optional(),
});

/** Retention policy changes are admin acts with a reason; the use case validates and audits. */
export const updatePolicyAction = defineAction({
  permission: "policy:write",
  input: PolicyForm,
  revalidate: SETTINGS,
  run: async ({ input, actor }) => {
    const { warnings } = await updatePolicy(
      input.projectId,
      {
        policy: policyFromForm(input),
        cannedQuestions: input.cannedQuestions,
      },
      actor,
      input.reason,
    );
    if (warnings.length === 0) return "Policy saved.";
    return `Policy saved. Note: ${warnings.map((w) => w.message).join("; ")}`;
  },
});
