"use server";

import { z } from "zod";
import { defineInstanceAction } from "@/lib/auth/define-action";
import { ROLES } from "@/lib/core/permissions";
import { addMember, createProject, findProjectBySlug, setPasswordOf, setUserRole } from "@/lib/server/admin";

const ADMIN = ["/admin"];

/** Creates a project; the instance admin who creates it becomes its first admin member. */
export const createProjectAction = defineInstanceAction({
  input: z.object({ slug: z.string().min(1).max(63), name: z.string().max(200).default("") }),
  revalidate: ADMIN,
  run: async ({ input, actor }) => {
    const project = await createProject({ slug: input.slug, name: input.name || input.slug }, actor);
    return `Created project ${project.slug}: you are its admin.`;
  },
});

/** Adds a person (invited when they have no account) to any project, with a role there. */
export const addToProjectAction = defineInstanceAction({
  input: z.object({ projectSlug: z.string().min(1).max(63), email: z.string().min(3).max(320), role: z.enum(ROLES) }),
  revalidate: ADMIN,
  run: async ({ input, actor }) => {
    const project = await findProjectBySlug(input.projectSlug);
    const added = await addMember({ projectId: project.id, email: input.email, role: input.role }, actor);
    const as = `${added.email} is now a ${added.role.toLowerCase()} of ${project.slug}.`;
    return added.generatedPassword
      ? { message: `${as} They had no account: give them this one-time password once:`, secret: added.generatedPassword }
      : as;
  },
});

/** A person's instance role: ADMIN manages projects and people; it grants nothing inside a project. */
export const setInstanceRoleAction = defineInstanceAction({
  input: z.object({ userId: z.uuid(), role: z.enum(ROLES) }),
  revalidate: ADMIN,
  run: async ({ input, actor }) => {
    await setUserRole(input.userId, input.role, actor);
    return `Instance role changed to ${input.role.toLowerCase()}.`;
  },
});

/** Sets another person's password (audited) and signs them out of every session. */
export const setPasswordAction = defineInstanceAction({
  input: z.object({ userId: z.uuid(), newPassword: z.string().max(256) }),
  revalidate: ADMIN,
  run: async ({ input, actor }) => {
    const { email, sessionsEnded } = await setPasswordOf(input.userId, input.newPassword, actor);
    return `Password of ${email} set; ${sessionsEnded} session${sessionsEnded === 1 ? "" : "s"} of theirs ended. Give them the new password.`;
  },
});
