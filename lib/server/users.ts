import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { AppError } from "@/lib/api/errors";
import { db } from "@/lib/db/client";
import type { RoleName } from "@/lib/api/permissions";
import { Prisma } from "@/lib/db/generated/client";

export interface CreatedUser {
  id: string;
  email: string;
  role: RoleName;
  /** The password, when it was generated here: shown once, never stored. */
  generatedPassword?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Invites a person with a role and a password sign-in (the account record better-auth reads). */
export async function createUser(input: { email: string; name?: string; role: RoleName; password?: string }): Promise<CreatedUser> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError("VALIDATION_FAILED", "Invalid email", { fields: [{ path: "email", message: "not an email address" }] });
  if (input.password !== undefined && input.password.length < 10) {
    throw new AppError("VALIDATION_FAILED", "Password too short", { fields: [{ path: "password", message: "at least 10 characters" }] });
  }
  const password = input.password ?? randomBytes(12).toString("base64url");
  const id = randomUUID();
  try {
    await db().$transaction([
      db().user.create({ data: { id, email, name: input.name ?? email.split("@")[0]!, role: input.role, emailVerified: true } }),
      db().authAccount.create({ data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: await hashPassword(password) } }),
    ]);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A user with email ${email} exists already`, { fields: [{ path: "email", message: "taken" }] });
    }
    throw error;
  }
  return { id, email, role: input.role, ...(input.password === undefined ? { generatedPassword: password } : {}) };
}

export async function listUsers() {
  return db().user.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, email: true, name: true, role: true, createdAt: true } });
}
