import { hashPassword, verifyPassword } from "better-auth/crypto";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { type DbTx, db } from "@/lib/db/client";
import { type Actor, writeAudit } from "@/lib/server/audit";

/**
 * Passwords and sessions. A changed password ends every other session of that person at once (the
 * sign-in library reads sessions from the database on every request, so a deleted row is a
 * signed-out browser): whoever knew the old password and signed in with it is out. Each change is
 * audited in its transaction, never with the password.
 */

/** The sign-in library's own minimum (lib/auth/server.ts). */
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 256;

function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    throw new AppError(
      "VALIDATION_FAILED",
      `The new password needs ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
      {
        fields: [{ path: "newPassword", message: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` }],
      },
    );
}

/** Deletes the person's sessions but `keep` (the one the request came from, if any); how many ended. */
async function endSessions(tx: DbTx, userId: string, keep: string | undefined): Promise<number> {
  const { count } = await tx.authSession.deleteMany({ where: { userId, ...(keep ? { id: { not: keep } } : {}) } });
  return count;
}

async function writePassword(tx: DbTx, userId: string, hashed: string): Promise<void> {
  const { count } = await tx.authAccount.updateMany({ where: { userId, providerId: "credential" }, data: { password: hashed } });
  if (count === 0) throw new AppError("NOT_FOUND", "This person has no password sign-in");
}

/**
 * The signed-in person changes their own password: the current one is asked first (a browser left
 * signed in is not enough), then every other session of theirs ends; the one they asked from stays.
 */
export async function changeOwnPassword(
  input: { userId: string; sessionId?: string; currentPassword: string; newPassword: string },
  actor: Actor,
): Promise<{ sessionsEnded: number }> {
  checkNewPassword(input.newPassword);
  const account = await db().authAccount.findFirst({ where: { userId: input.userId, providerId: "credential" } });
  const valid = account?.password ? await verifyPassword({ hash: account.password, password: input.currentPassword }) : false;
  if (!valid)
    throw new AppError("VALIDATION_FAILED", "The current password is wrong", {
      fields: [{ path: "currentPassword", message: "wrong password" }],
    });
  const hashed = await hashPassword(input.newPassword);
  return db().$transaction(async (tx) => {
    await writePassword(tx, input.userId, hashed);
    const sessionsEnded = await endSessions(tx, input.userId, input.sessionId);
    await writeAudit(tx, {
      projectId: null,
      actor,
      act: "user.password",
      targetType: "user",
      targetId: input.userId,
      after: { by: "self", sessionsEnded },
    });
    return { sessionsEnded };
  });
}

/**
 * An instance admin sets another person's password (one they forgot, or one to take away): every
 * session of that person ends. Their own password an admin changes like anyone else, with the
 * current one.
 */
export async function setPasswordOf(
  userId: string,
  newPassword: string,
  actor: Actor,
): Promise<{ email: string; sessionsEnded: number }> {
  if (!isUuid(userId)) throw new AppError("NOT_FOUND", "User not found");
  if (actor.id === userId)
    throw new AppError("CONFLICT", "Change your own password on your account page, with your current password", {
      fields: [{ path: "userId", message: "yourself" }],
    });
  checkNewPassword(newPassword);
  const hashed = await hashPassword(newPassword);
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (!user) throw new AppError("NOT_FOUND", "User not found");
    await writePassword(tx, userId, hashed);
    const sessionsEnded = await endSessions(tx, userId, undefined);
    await writeAudit(tx, {
      projectId: null,
      actor,
      act: "user.password",
      targetType: "user",
      targetId: userId,
      after: { by: "admin", sessionsEnded },
    });
    return { email: user.email, sessionsEnded };
  });
}

/** "Sign out everywhere": every session of the person but the one they asked from. */
export async function endOtherSessions(
  userId: string,
  sessionId: string | undefined,
  actor: Actor,
): Promise<{ sessionsEnded: number }> {
  return db().$transaction(async (tx) => {
    const sessionsEnded = await endSessions(tx, userId, sessionId);
    await writeAudit(tx, {
      projectId: null,
      actor,
      act: "user.sessions_end",
      targetType: "user",
      targetId: userId,
      after: { sessionsEnded },
    });
    return { sessionsEnded };
  });
}

/** How many sessions the person has open (the account page says so). */
export async function countSessions(userId: string): Promise<number> {
  return db().authSession.count({ where: { userId, expiresAt: { gt: new Date() } } });
}
