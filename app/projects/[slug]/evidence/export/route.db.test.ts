import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { upsertSession } from "@/lib/server/ingest";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js.
vi.mock("@/lib/auth/session", () => ({
  currentUser: async () => ({ id: "reviewer-1", email: "reviewer@example.com", name: "Reviewer", role: "VIEWER" }),
}));

const { GET } = await import("./route");

describe("the Evidence export", () => {
  it("writes evidence.export naming who exported which question over which scope, as what", async () => {
    const project = await makeTestProject("export-audit");
    const { session } = await upsertSession(project.id, { externalId: "exported", runtime: "test" });
    const url = `http://custodian.test/evidence/export?project=${project.slug}&q=modified-system-config&session=${session.id}&from=2026-01-01&format=csv`;
    const response = await GET(new Request(url));
    expect(response.status).toBe(200);
    const rows = await db().auditLog.findMany({ where: { projectId: project.id, act: "evidence.export" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: "USER",
      actorId: "reviewer-1",
      actorLabel: "reviewer@example.com",
      targetType: "project",
      targetId: project.id,
      after: {
        question: { id: "modified-system-config" },
        scope: { sessionIds: [session.id], from: "2026-01-01T00:00:00.000Z" },
        format: "csv",
        citations: 0,
      },
    });
  });

  it("a refused export (no question) writes nothing", async () => {
    const project = await makeTestProject("export-refused");
    const response = await GET(new Request(`http://custodian.test/evidence/export?project=${project.slug}`));
    expect(response.status).toBe(422);
    expect(await db().auditLog.count({ where: { projectId: project.id } })).toBe(0);
  });
});
