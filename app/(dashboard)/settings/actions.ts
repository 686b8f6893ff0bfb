"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/api/permissions";
import { parseWith } from "@/lib/api/route";
import { runAction, type ActionResult } from "@/lib/auth/action-result";
import { authorize } from "@/lib/auth/session";
import { createApiKey, revokeApiKey } from "@/lib/server/api-keys";
import { createUser, setUserRole } from "@/lib/server/users";

const entries = (form: FormData) => Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== ""));

export async function createKeyAction(_: ActionResult | null, form: FormData): Promise<ActionResult> {
  return runAction(async () => {
    const { actor } = await authorize("keys:manage");
    const input = parseWith(z.object({ projectId: z.uuid(), name: z.string().min(1).max(100), role: z.enum(ROLES) }), entries(form), "The form");
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
    const input = parseWith(z.object({ email: z.string().min(3).max(320), name: z.string().max(200).optional(), role: z.enum(ROLES) }), entries(form), "The form");
    const user = await createUser(input);
    revalidatePath("/settings");
    return { message: `Invited ${user.email} as ${user.role.toLowerCase()}. Give them this password once:`, secret: user.generatedPassword! };
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
