"use server";

import { z } from "zod";
import { defineAccountAction } from "@/lib/auth/define-action";
import { changeOwnPassword, endOtherSessions } from "@/lib/server/admin";

const ACCOUNT = ["/account"];

/** Changes the signed-in person's password (the current one asked first) and ends their other sessions. */
export const changePasswordAction = defineAccountAction({
  input: z.object({ currentPassword: z.string().max(256), newPassword: z.string().max(256) }),
  revalidate: ACCOUNT,
  run: async ({ input, user, actor }) => {
    const { sessionsEnded } = await changeOwnPassword(
      { userId: user.id, sessionId: user.sessionId, currentPassword: input.currentPassword, newPassword: input.newPassword },
      actor,
    );
    return `Password changed. ${ended(sessionsEnded)}`;
  },
});

/** Signs the person out of every browser but this one. */
export const signOutEverywhereAction = defineAccountAction({
  input: z.object({}),
  revalidate: ACCOUNT,
  run: async ({ user, actor }) => {
    const { sessionsEnded } = await endOtherSessions(user.id, user.sessionId, actor);
    return ended(sessionsEnded);
  },
});

function ended(count: number): string {
  if (count === 0) return "You had no other sessions.";
  return `Signed out ${count} other session${count === 1 ? "" : "s"}.`;
}
