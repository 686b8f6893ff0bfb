import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { AppError } from "@/lib/core/errors";
import { type DbTx, db } from "@/lib/db/client";
import type { RoleName } from "@/lib/core/permissions";
import { Prisma } from "@/lib/db/generated/client";
import { isUuid } from "@/lib/core/ids";
import { writeAudit, type Actor } from "@/lib/server/audit";

export interface CreatedUser {
  id: string;
  email: string;
  role: RoleName;
  /** The password, when it was generated here: shown once, never stored. */
  generatedPassword?: string;
}

import { normalizeEmail } from "./email";

/**
 * Writes a new person and their password sign-in (the account record better-auth reads) inside
 * the caller's transaction, audited as `user.invite` there; returns their id. The password is hashed
 * before (`hashPassword`), outside the transaction.
 */
export async function insertPerson(
  tx: DbTx,
  person: { email: string; name?: string; role: RoleName; hashedPassword: string },
  actor: Actor,
  projectId: string | null = null,
): Promise<string> {
  const id = randomUUID();
  await tx.user.create({
    data: { id, email: person.email, name: person.name ?? person.email.split("@")[0]!, role: person.role, emailVerified: true },
  });
  await tx.authAccount.create({
    data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: person.hashedPassword },
  });
  await writeAudit(tx, {
    projectId,
    actor,
    act: "user.invite",
    targetType: "user",
    targetId: id,
    after: { email: person.email, role: person.role },
  });
  return id;
}

/** A one-time password for a person invited without one: shown once, never stored. */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Invites a person with an instance role and a password sign-in, audited as `user.invite` in the
 * same transaction: who invited whom, with which role. Projects are joined separately (members.ts).
 */
export async function createUser(
  input: {
    email: string;
    name?: string;
    role: RoleName;
    password?: string;
  },
  actor: Actor,
): Promise<CreatedUser> {
  const email = normalizeEmail(input.email);
  if (input.password !== undefined && input.password.length < 10) {
    throw new AppError("VALIDATION_FAILED", "Password too short", {
      fields: [{ path: "password", message: "at least 10 characters" }],
    });
  }
  const password = input.password ?? generatePassword();
  let id: string;
  try {
    const hashedPassword = await hashPassword(password);
    id = await db().$transaction((tx) => insertPerson(tx, { email, name: input.name, role: input.role, hashedPassword }, actor));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `A user with email ${email} exists already`, {
        fields: [{ path: "email", message: "taken" }],
      });
    }
    throw error;
  }
  return { id, email, role: input.role, ...(input.password === undefined ? { generatedPassword: password } : {}) };
}

export async function listUsers() {
  return db().user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, name: true, role: true, createdAt: true },
  });
}

/** Changes a person's role; an admin cannot demote themself (someone must stay able to manage people). */
export async function setUserRole(userId: string, role: RoleName, actor: Actor): Promise<void> {
  if (!isUuid(userId)) throw new AppError("NOT_FOUND", "User not found");
  if (actor.id === userId && role !== "ADMIN")
    throw new AppError("CONFLICT", "You cannot change your own role; ask another admin");
  await db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    if (user.role === role) return;
    await tx.user.update({ where: { id: userId }, data: { role } });
    await writeAudit(tx, {
      projectId: null,
      actor,
      act: "user.role",
      targetType: "user",
      targetId: userId,
      before: { role: user.role },
      after: { role },
    });
  });
}
