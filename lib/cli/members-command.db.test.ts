import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { findMembership } from "@/lib/server/admin";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { runMembersCommand } from "./members-command";

async function run(action: string, values: Record<string, string>) {
  const lines: string[] = [];
  await runMembersCommand(action, values, (line) => lines.push(line));
  return lines;
}

describe("custodian members", () => {
  it("add invites an unknown person with a one-time password printed once; list shows members with their roles", async () => {
    const project = await makeTestProject("cli-members");
    const email = `cli-${randomBytes(4).toString("hex")}@example.com`;
    const added = await run("add", { project: project.slug, email, role: "operator" });
    expect(added[0]).toBe(`Added ${email} to ${project.slug} as operator.`);
    const password = added[1]?.match(/Password \(shown once\): (\S+)$/)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const person = await db().user.findUniqueOrThrow({ where: { email } });
    expect((await findMembership(person.id, project.slug))?.role).toBe("OPERATOR");
    expect(await db().auditLog.findFirst({ where: { projectId: project.id, act: "member.add" } })).toMatchObject({
      actorType: "SYSTEM",
      actorLabel: "cli",
    });

    // The same person in a second project: no new account, no password.
    const other = await makeTestProject("cli-members-other");
    expect(await run("add", { project: other.slug, email, role: "VIEWER" })).toEqual([
      `Added ${email} to ${other.slug} as viewer.`,
    ]);
    expect(await run("list", { project: project.slug })).toEqual([
      `${email}  operator  since ${new Date().toISOString().slice(0, 10)}`,
    ]);
    expect(await run("list", { project: (await makeTestProject("cli-empty")).slug })).toEqual([
      expect.stringMatching(/^No members in cli-empty-/),
    ]);
  });

  it("refuses a missing or unknown project, a bad role and a second add, with clean errors", async () => {
    const project = await makeTestProject("cli-refusals");
    const email = `cli-${randomBytes(4).toString("hex")}@example.com`;
    await expect(run("list", {})).rejects.toMatchObject({ code: "VALIDATION_FAILED", message: "--project is required" });
    await expect(run("list", { project: "no-such-project" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(run("add", { project: project.slug, email, role: "owner" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(run("add", { project: project.slug, email })).rejects.toMatchObject({ message: "--role is required" });
    await run("add", { project: project.slug, email, role: "viewer" });
    await expect(run("add", { project: project.slug, email, role: "admin" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(run("remove", { project: project.slug })).rejects.toMatchObject({ code: "INVALID_REQUEST" });
  });
});
