import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES } from "@/lib/evidence/types";
import { countGrid, sessionSpanStatuses } from "@/lib/server/provenance/span-status";
import { createUser, findMembership } from "@/lib/server/admin";
import { loadPolicy } from "@/lib/server/retention";
import { addDemoMembers, DEMO_PASSWORD, DEMO_USERS, loadDemo } from "./load";

describe("demo data", async () => {
  const now = new Date();
  const summary = await loadDemo(now, `demo-${randomBytes(4).toString("hex")}`);
  const project = await db().project.findUniqueOrThrow({ where: { slug: summary.projectSlug } });
  const sessions = await db().session.findMany({ where: { projectId: project.id } });
  const policy = await loadPolicy(db(), project.id);
  const statuses = (await Promise.all(sessions.map((s) => sessionSpanStatuses(db(), policy, s.id, now)))).flat();

  it("populates every cell of the grid through the real ingest and gate", () => {
    const grid = countGrid(statuses);
    for (const cls of EVIDENTIAL_CLASSES) {
      for (const status of PROVENANCE_STATUSES) {
        expect(grid[cls][status], `${cls} x ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it("records refusals, an honest summary, a pinned original and originals expiring before their horizon", async () => {
    const ids = sessions.map((s) => s.id);
    expect(await db().refusalEvent.count({ where: { projectId: project.id } })).toBeGreaterThan(0);
    expect(statuses.some((s) => s.transcriptState === "RECLAIMED_HONEST")).toBe(true);
    expect(statuses.some((s) => s.transcriptState === "PRESERVED")).toBe(true);
    expect(await db().spanOriginal.count({ where: { sessionId: { in: ids }, pinned: true } })).toBeGreaterThan(0);
    expect(statuses.some((s) => s.class !== "NARRATIVE" && s.provenance === "EXPIRING")).toBe(true);
  });

  it("contains the seed's scenario: a write to /etc/app/conf.yaml summarised without the path", async () => {
    const writes = await db().evidenceAtom.findMany({
      where: {
        sessionId: { in: sessions.map((s) => s.id) },
        normalized: "/etc/app/conf.yaml",
        effect: "FILE_WRITE",
        negated: false,
      },
    });
    expect(writes.length).toBeGreaterThanOrEqual(2);
    const writingSpans = await db().span.findMany({
      where: { OR: writes.map((w) => ({ sessionId: w.sessionId, id: w.spanId })) },
      select: { class: true },
    });
    expect(writingSpans.every((s) => s.class === "SIDE_EFFECTING")).toBe(true);
    const summaries = await db().span.findMany({
      where: { sessionId: { in: sessions.map((s) => s.id) }, kind: "SUMMARY" },
      include: { original: true },
    });
    const texts = summaries.map((s) => new TextDecoder().decode(s.original?.bytes ?? new Uint8Array()));
    expect(texts.some((t) => t.startsWith("The agent configured the application's YAML configuration."))).toBe(true);
  });

  it("writes the sweeper's deletions and the operators' acts to the audit log", async () => {
    const acts = await db().auditLog.findMany({ where: { projectId: project.id }, select: { act: true } });
    const names = new Set(acts.map((a) => a.act));
    expect(names).toContain("original.sweep");
    expect(names).toContain("original.pin");
    expect(names).toContain("original.shorten");
  });

  it("makes the demo's people members of the demo project with their roles, once", async () => {
    for (const user of DEMO_USERS) {
      if (!(await db().user.findUnique({ where: { email: user.email } })))
        await createUser({ ...user, password: DEMO_PASSWORD }, { type: "SYSTEM", label: "test" });
    }
    expect(await addDemoMembers(project.id)).toBe(DEMO_USERS.length);
    for (const user of DEMO_USERS) {
      const person = await db().user.findUniqueOrThrow({ where: { email: user.email } });
      expect((await findMembership(person.id, project.slug))?.role, user.email).toBe(user.role);
    }
    expect(await addDemoMembers(project.id)).toBe(0);
  });
});
