import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/server/audit";
import { createUser, setUserRole } from "./users";

const admin: Actor = { type: "USER", id: "admin-1", label: "admin@example.com" };
const email = () => `person-${randomBytes(4).toString("hex")}@example.com`;

describe("people in the audit log", () => {
  it("inviting a person writes a user.invite row naming who invited them, with the role", async () => {
    const user = await createUser({ email: email(), role: "OPERATOR" }, admin);
    const audit = await db().auditLog.findMany({ where: { targetId: user.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      act: "user.invite",
      actorId: "admin-1",
      actorLabel: "admin@example.com",
      targetType: "user",
      after: { email: user.email, role: "OPERATOR" },
    });
  });

  it("an invitation that fails (the email is taken) leaves neither a user nor an audit row", async () => {
    const address = email();
    const first = await createUser({ email: address, role: "VIEWER" }, admin);
    await expect(createUser({ email: address, role: "ADMIN" }, admin)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db().user.count({ where: { email: address } })).toBe(1);
    expect(await db().auditLog.count({ where: { act: "user.invite", after: { path: ["email"], equals: address } } })).toBe(1);
    expect(first.email).toBe(address);
  });

  it("changing a role writes a user.role row with before and after", async () => {
    const user = await createUser({ email: email(), role: "VIEWER" }, admin);
    await setUserRole(user.id, "OPERATOR", admin);
    const row = await db().auditLog.findFirstOrThrow({ where: { targetId: user.id, act: "user.role" } });
    expect(row).toMatchObject({ actorLabel: "admin@example.com", before: { role: "VIEWER" }, after: { role: "OPERATOR" } });
  });

  it("a look-alike of a person's email is that person (409) or refused (422), never a second account listing as them", async () => {
    const tag = randomBytes(4).toString("hex");
    const address = `admin-${tag}@example.com`;
    await createUser({ email: address, role: "ADMIN" }, admin);
    const users = await db().user.count();
    for (const lookAlike of [`ａdmin-${tag}@example.com`, `ADMIN-${tag}@EXAMPLE.COM`])
      await expect(createUser({ email: lookAlike, role: "ADMIN" }, admin)).rejects.toMatchObject({ code: "CONFLICT" });
    for (const lookAlike of [
      `аdmin-${tag}@example.com`,
      `admin-${tag}\u200b@example.com`,
      `admin-${tag}@example.com.`,
      `\u202eadmin-${tag}@example.com`,
    ])
      await expect(createUser({ email: lookAlike, role: "ADMIN" }, admin)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
        options: { fields: [{ path: "email" }] },
      });
    expect(await db().user.count()).toBe(users);
  });
});
