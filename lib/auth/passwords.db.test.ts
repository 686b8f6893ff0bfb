import { randomBytes, randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";
import { db } from "@/lib/db/client";
import { changeOwnPassword, createUser, endOtherSessions, setPasswordOf } from "@/lib/server/admin";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { getAuth } from "./server";

const ORIGIN = "http://custodian.test";

/** A browser signed in through the sign-in endpoint: its cookie and its session's id. */
async function browser(email: string, password: string): Promise<{ cookie: string; sessionId: string }> {
  const response = await getAuth().handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        host: "custodian.test",
        [CLIENT_ADDRESS_HEADER]: `10.79.${randomInt(0, 256)}.${randomInt(1, 255)}`,
      },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(response.status).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  const session = await getAuth().api.getSession({ headers: new Headers({ cookie }) });
  return { cookie, sessionId: session!.session.id };
}

const signedIn = async (cookie: string) => (await getAuth().api.getSession({ headers: new Headers({ cookie }) })) !== null;

async function person() {
  const email = `pw-${randomBytes(4).toString("hex")}@example.com`;
  const password = `first password ${randomBytes(4).toString("hex")}`;
  const user = await createUser({ email, role: "VIEWER", password }, TEST_ACTOR);
  return { id: user.id, email, password, actor: { type: "USER" as const, id: user.id, label: email } };
}

async function lastAudit(targetId: string) {
  return db().auditLog.findFirst({ where: { targetId }, orderBy: { chainSeq: "desc" } });
}

describe("passwords and sessions", () => {
  it("a person's own change asks the current password, then ends every other session, keeps this one, and is audited", async () => {
    const p = await person();
    const here = await browser(p.email, p.password);
    const elsewhere = await browser(p.email, p.password);
    await expect(
      changeOwnPassword(
        { userId: p.id, sessionId: here.sessionId, currentPassword: "not it at all", newPassword: "second password" },
        p.actor,
      ),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fields: [{ path: "currentPassword" }] });
    await expect(
      changeOwnPassword({ userId: p.id, sessionId: here.sessionId, currentPassword: p.password, newPassword: "short" }, p.actor),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fields: [{ path: "newPassword" }] });
    expect(await signedIn(elsewhere.cookie)).toBe(true);

    const changed = await changeOwnPassword(
      { userId: p.id, sessionId: here.sessionId, currentPassword: p.password, newPassword: "second password" },
      p.actor,
    );
    expect(changed).toEqual({ sessionsEnded: 1 });
    expect(await signedIn(elsewhere.cookie)).toBe(false);
    expect(await signedIn(here.cookie)).toBe(true);
    // The new password signs in; the old one no longer does.
    await browser(p.email, "second password");
    await expect(browser(p.email, p.password)).rejects.toThrow();
    const audit = await lastAudit(p.id);
    expect(audit).toMatchObject({ act: "user.password", actorId: p.id, after: { by: "self", sessionsEnded: 1 } });
    expect(JSON.stringify({ before: audit?.before, after: audit?.after, reason: audit?.reason })).not.toContain(
      "second password",
    );
  });

  it("an instance admin sets another person's password: all their sessions end, audited with the admin as actor", async () => {
    const p = await person();
    const admin = await person();
    const one = await browser(p.email, p.password);
    const two = await browser(p.email, p.password);
    expect(await setPasswordOf(p.id, "set by the admin", admin.actor)).toEqual({ email: p.email, sessionsEnded: 2 });
    expect(await signedIn(one.cookie)).toBe(false);
    expect(await signedIn(two.cookie)).toBe(false);
    await browser(p.email, "set by the admin");
    expect(await lastAudit(p.id)).toMatchObject({
      act: "user.password",
      actorId: admin.id,
      after: { by: "admin", sessionsEnded: 2 },
    });
    await expect(setPasswordOf(admin.id, "my own new one", admin.actor)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(setPasswordOf("not-a-uuid", "whatever long", admin.actor)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("signing out everywhere ends every session but this one", async () => {
    const p = await person();
    const here = await browser(p.email, p.password);
    const others = [await browser(p.email, p.password), await browser(p.email, p.password)];
    expect(await endOtherSessions(p.id, here.sessionId, p.actor)).toEqual({ sessionsEnded: 2 });
    for (const other of others) expect(await signedIn(other.cookie)).toBe(false);
    expect(await signedIn(here.cookie)).toBe(true);
    expect(await lastAudit(p.id)).toMatchObject({ act: "user.sessions_end", after: { sessionsEnded: 2 } });
  });
});
