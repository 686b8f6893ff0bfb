import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Actor } from "@/lib/server/audit";
import { findMembership, listProjectsOf, projectHolding } from "./membership";
import { addMember, listMembers, removeMember, setMemberRole } from "./members";
import { createProject } from "./projects";
import { makeTestProject } from "./test-project";
import { createUser } from "./users";

const email = () => `member-${randomBytes(4).toString("hex")}@example.com`;

async function projectAdmin() {
  const user = await createUser({ email: email(), role: "VIEWER" }, { type: "SYSTEM", label: "test" });
  return { type: "USER", id: user.id, label: user.email } satisfies Actor;
}

describe("project membership", () => {
  it("adding an unknown email invites the person with a one-time password; both acts are audited in the project", async () => {
    const project = await makeTestProject("members-add");
    const admin = await projectAdmin();
    const address = email();
    const added = await addMember({ projectId: project.id, email: ` ${address.toUpperCase()} `, role: "OPERATOR" }, admin);
    expect(added).toMatchObject({ email: address, role: "OPERATOR" });
    expect(added.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const person = await db().user.findUniqueOrThrow({ where: { email: address } });
    expect(person.role).toBe("VIEWER"); // no instance powers come with an invitation
    const audit = await db().auditLog.findMany({ where: { projectId: project.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.act).sort()).toEqual(["member.add", "user.invite"]);
    expect(audit.find((a) => a.act === "member.add")).toMatchObject({
      actorId: admin.id,
      targetType: "user",
      targetId: person.id,
      after: { email: address, role: "OPERATOR", created: true },
    });
    expect(await findMembership(person.id, project.slug)).toEqual({
      project: { id: project.id, slug: project.slug, name: project.name },
      role: "OPERATOR",
    });
  });

  it("adding a known person makes no account and shows no password; adding them twice is a CONFLICT with nothing written", async () => {
    const project = await makeTestProject("members-known");
    const admin = await projectAdmin();
    const known = await createUser({ email: email(), role: "VIEWER", password: "a long enough password" }, admin);
    const added = await addMember({ projectId: project.id, email: known.email, role: "VIEWER" }, admin);
    expect(added).toEqual({ userId: known.id, email: known.email, role: "VIEWER" });
    await expect(addMember({ projectId: project.id, email: known.email, role: "ADMIN" }, admin)).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await db().auditLog.count({ where: { projectId: project.id, act: "member.add" } })).toBe(1);
    expect((await findMembership(known.id, project.slug))?.role).toBe("VIEWER");
    await expect(addMember({ projectId: project.id, email: "not an email", role: "VIEWER" }, admin)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });

  it("changes a role and removes a member, each audited with before and after; nobody changes or removes themself", async () => {
    const project = await makeTestProject("members-change");
    const admin = await projectAdmin();
    const added = await addMember({ projectId: project.id, email: email(), role: "VIEWER" }, admin);
    await setMemberRole(project.id, added.userId, "ADMIN", admin);
    expect((await listMembers(project.id)).map((m) => [m.email, m.role])).toEqual([[added.email, "ADMIN"]]);
    const changed = await db().auditLog.findFirstOrThrow({ where: { projectId: project.id, act: "member.role" } });
    expect(changed).toMatchObject({ targetId: added.userId, before: { role: "VIEWER" }, after: { role: "ADMIN" } });

    const self: Actor = { type: "USER", id: added.userId, label: added.email };
    await expect(setMemberRole(project.id, added.userId, "VIEWER", self)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(removeMember(project.id, added.userId, self)).rejects.toMatchObject({ code: "CONFLICT" });

    await removeMember(project.id, added.userId, admin);
    expect(await listMembers(project.id)).toEqual([]);
    expect(await findMembership(added.userId, project.slug)).toBeNull();
    const removed = await db().auditLog.findFirstOrThrow({ where: { projectId: project.id, act: "member.remove" } });
    expect(removed).toMatchObject({ targetId: added.userId, before: { email: added.email, role: "ADMIN" } });
    await expect(removeMember(project.id, added.userId, admin)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(setMemberRole(project.id, "not-a-uuid", "ADMIN", admin)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a role or removal in one project never touches the person's membership of another", async () => {
    const [a, b] = [await makeTestProject("members-a"), await makeTestProject("members-b")];
    const admin = await projectAdmin();
    const address = email();
    const inA = await addMember({ projectId: a.id, email: address, role: "OPERATOR" }, admin);
    await addMember({ projectId: b.id, email: address, role: "VIEWER" }, admin);
    await setMemberRole(b.id, inA.userId, "ADMIN", admin);
    expect((await findMembership(inA.userId, a.slug))?.role).toBe("OPERATOR");
    await removeMember(a.id, inA.userId, admin);
    expect(await findMembership(inA.userId, a.slug)).toBeNull();
    expect((await listProjectsOf(inA.userId)).map((p) => [p.slug, p.role])).toEqual([[b.slug, "ADMIN"]]);
  });

  it("a project created by an instance admin is audited and has them as its first admin; a taken slug is a CONFLICT", async () => {
    const admin = await projectAdmin();
    const slug = `created-${randomBytes(4).toString("hex")}`;
    const project = await createProject({ slug, name: "Created" }, admin);
    expect(await db().auditLog.findFirst({ where: { projectId: project.id, act: "project.create" } })).toMatchObject({
      actorId: admin.id,
      after: { slug, name: "Created" },
    });
    expect((await findMembership(admin.id!, slug))?.role).toBe("ADMIN");
    await expect(createProject({ slug, name: "Again" }, admin)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(createProject({ slug: "Bad Slug", name: "x" }, admin)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("finds which of a person's projects holds a session or span, never one they are not a member of", async () => {
    const [mine, theirs] = [await makeTestProject("holding-mine"), await makeTestProject("holding-theirs")];
    const admin = await projectAdmin();
    const person = await addMember({ projectId: mine.id, email: email(), role: "VIEWER" }, admin);
    const { upsertSession, appendSpans } = await import("@/lib/server/ingest");
    const own = (await upsertSession(mine.id, { externalId: "own", runtime: "test" })).session;
    const foreign = (await upsertSession(theirs.id, { externalId: "foreign", runtime: "test" })).session;
    const [span] = await appendSpans(theirs.id, foreign.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("x") },
    ]);
    expect(await projectHolding(person.userId, "session", own.id)).toBe(mine.slug);
    expect(await projectHolding(person.userId, "session", foreign.id)).toBeNull();
    expect(await projectHolding(person.userId, "span", span!.id)).toBeNull();
    expect(await findMembership(person.userId, theirs.slug)).toBeNull();
  });
});
