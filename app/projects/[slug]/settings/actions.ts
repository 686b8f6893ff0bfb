"use server";

import { saveNote } from "@/components/policy-labels";
import { z } from "zod";
import { ROLES } from "@/lib/core/permissions";
import { defineAction } from "@/lib/auth/define-action";
import { POLICY_FIELDS, policyFromForm } from "../policy-form";
import { previewHref, refusedForPreview, unlessHandedToPreview } from "../retention/preview-href";
import { addMember, createApiKey, removeMember, revokeApiKey, setMemberRole } from "@/lib/server/admin";
import { updatePolicy } from "@/lib/server/retention";

const SETTINGS = ["/settings"];

export const createKeyAction = defineAction({
  permission: "keys:manage",
  input: z.object({ name: z.string().min(1).max(100), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor, project }) => {
    const key = await createApiKey(project.id, input.name, input.role, actor);
    return { message: `Created key "${key.name}" (${key.prefix}…). Copy it now: it is not shown again.`, secret: key.key };
  },
});

export const revokeKeyAction = defineAction({
  permission: "keys:manage",
  input: z.object({ keyId: z.uuid() }),
  revalidate: SETTINGS,
  run: async ({ input, actor, project }) => {
    await revokeApiKey(input.keyId, actor, project.id);
    return "Revoked: requests with this key now get 401.";
  },
});

/** Invites a person to this project by email; someone without an account gets one, with a password shown once. */
export const inviteMemberAction = defineAction({
  permission: "users:manage",
  input: z.object({ email: z.string().min(3).max(320), name: z.string().max(200).optional(), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor, project }) => {
    const added = await addMember({ projectId: project.id, ...input }, actor);
    const as = `${added.email} is now a ${added.role.toLowerCase()} of ${project.name}.`;
    return added.generatedPassword
      ? { message: `${as} They had no account: give them this one-time password once:`, secret: added.generatedPassword }
      : `${as} They sign in with their existing account.`;
  },
});

export const setMemberRoleAction = defineAction({
  permission: "users:manage",
  input: z.object({ userId: z.uuid(), role: z.enum(ROLES) }),
  revalidate: SETTINGS,
  run: async ({ input, actor, project }) => {
    await setMemberRole(project.id, input.userId, input.role, actor);
    return `Role in ${project.name} changed to ${input.role.toLowerCase()}.`;
  },
});

export const removeMemberAction = defineAction({
  permission: "users:manage",
  input: z.object({ userId: z.uuid() }),
  revalidate: SETTINGS,
  run: async ({ input, actor, project }) => {
    await removeMember(project.id, input.userId, actor);
    return `Removed from ${project.name}: they no longer see anything of it.`;
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
  /** The policy version the form was filled from: another saved since is a conflict. */
  version: z.coerce.number().int().min(0),
  reason: z.string().max(1000).optional(),
});

/**
 * Retention policy changes are admin acts with a reason; the use case validates and audits. A
 * change that gives up evidence is not saved here: the answer hands the proposal to the retention
 * page's what-if (`data.preview`), where it is previewed and then saved with a reason.
 */
export const updatePolicyAction = defineAction({
  permission: "policy:write",
  input: PolicyForm,
  revalidate: unlessHandedToPreview(SETTINGS),
  run: async ({ input, actor, project }) => {
    const policy = policyFromForm(input);
    try {
      const { warnings, version, changes } = await updatePolicy(
        project.id,
        { policy, cannedQuestions: input.cannedQuestions, expectedVersion: input.version, requirePreview: true },
        actor,
        input.reason,
      );
      return `Policy saved as version ${version}.${saveNote(warnings, changes)}`;
    } catch (error) {
      if (!refusedForPreview(error)) throw error;
      return {
        message: `Not saved: ${(error as Error).message}. Opening the preview…`,
        data: { preview: previewHref(project.slug, { policy }) },
      };
    }
  },
});
