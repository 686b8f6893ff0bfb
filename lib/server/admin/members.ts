import { hashPassword } from "better-auth/crypto";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import type { RoleName } from "@/lib/core/permissions";
import { db } from "@/lib/db/client";
import { type Actor, writeAudit } from "@/lib/server/audit";
import { normalizeEmail } from "./email";
import { generatePassword, insertPerson, isUniqueViolation } from "./users";

export interface AddedMember {
  userId: string;
  email: string;
  role: RoleName;
  /** Set when the person had no account and one was made: their one-time password, shown once. */
  generatedPassword?: string;
}

/**
 * Makes the person with this email a member of the project with a role there, audited as
 * `member.add` in the same transaction. A person without an account is invited (created with a
 * generated one-time password and no instance role beyond viewer, `user.invite` audited alike).
 * CONFLICT when they are a member already (change their role instead).
 */
export async function addMember(
  input: { projectId: string; email: string; role: RoleName; name?: string },
  actor: Actor,
): Promise<AddedMember> {
  const email = normalizeEmail(input.email);
  // Hashing is slow on purpose; done before the transaction, used only if the person is new.
  const password = generatePassword();
  const hashedPassword = await hashPassword(password);
  try {
    return await db().$transaction(async (tx) => {
      const existing = await tx.user.findUnique({ where: { email }, select: { id: true } });
      const userId =
        existing?.id ??
        (await insertPerson(tx, { email, name: input.name, role: "VIEWER", hashedPassword }, actor, input.projectId));
      await tx.projectMember.create({ data: { projectId: input.projectId, userId, role: input.role } });
      await writeAudit(tx, {
        projectId: input.projectId,
        actor,
        act: "member.add",
        targetType: "user",
        targetId: userId,
        after: { email, role: input.role, created: !existing },
      });
      return { userId, email, role: input.role, ...(existing ? {} : { generatedPassword: password }) };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", `${email} is a member of this project already`, {
        fields: [{ path: "email", message: "already a member" }],
      });
    throw error;
  }
}

/**
 * Changes a member's role in the project, audited as `member.role`. Nobody changes their own role
 * (someone else must agree to it, and a project's last admin cannot lock everyone out by mistake).
 */
export async function setMemberRole(projectId: string, userId: string, role: RoleName, actor: Actor): Promise<void> {
  if (!isUuid(userId)) throw new AppError("NOT_FOUND", "Not a member of this project");
  if (actor.id === userId) throw new AppError("CONFLICT", "You cannot change your own role; ask another admin");
  await db().$transaction(async (tx) => {
    const member = await tx.projectMember.findUnique({ where: { projectId_userId: { projectId, userId } } });
    if (!member) throw new AppError("NOT_FOUND", "Not a member of this project");
    if (member.role === role) return;
    // Removed by a concurrent act since it was read: as if it had not been found (no audit row).
    const updated = await tx.projectMember.updateMany({ where: { projectId, userId }, data: { role } });
    if (updated.count === 0) throw new AppError("NOT_FOUND", "Not a member of this project");
    await writeAudit(tx, {
      projectId,
      actor,
      act: "member.role",
      targetType: "user",
      targetId: userId,
      before: { role: member.role },
      after: { role },
    });
  });
}

/** Removes a member from the project (their account stays), audited as `member.remove`; not oneself. */
export async function removeMember(projectId: string, userId: string, actor: Actor): Promise<void> {
  if (!isUuid(userId)) throw new AppError("NOT_FOUND", "Not a member of this project");
  if (actor.id === userId) throw new AppError("CONFLICT", "You cannot remove yourself; ask another admin");
  await db().$transaction(async (tx) => {
    const member = await tx.projectMember.findUnique({
      where: { projectId_userId: { projectId, userId } },
      include: { user: { select: { email: true } } },
    });
    if (!member) throw new AppError("NOT_FOUND", "Not a member of this project");
    // A concurrent removal of the same member deleted it first: NOT_FOUND, and no second audit row.
    const deleted = await tx.projectMember.deleteMany({ where: { projectId, userId } });
    if (deleted.count === 0) throw new AppError("NOT_FOUND", "Not a member of this project");
    await writeAudit(tx, {
      projectId,
      actor,
      act: "member.remove",
      targetType: "user",
      targetId: userId,
      before: { email: member.user.email, role: member.role },
    });
  });
}

export interface ProjectMemberRow {
  userId: string;
  email: string;
  name: string;
  role: RoleName;
  since: Date;
}

/** The project's members, by email. */
export async function listMembers(projectId: string): Promise<ProjectMemberRow[]> {
  const rows = await db().projectMember.findMany({
    where: { projectId },
    include: { user: { select: { email: true, name: true } } },
    orderBy: { user: { email: "asc" } },
  });
  return rows.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role, since: m.createdAt }));
}
