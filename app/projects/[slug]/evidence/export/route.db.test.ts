import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { upsertSession } from "@/lib/server/ingest";
import { parseExportDocument, verifyExport } from "@/lib/server/questions";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js. Their
// membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));

const { GET } = await import("./route");

/** A viewer of the project, signed in. */
async function signInAsViewerOf(projectId: string) {
  const email = `reviewer-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Reviewer", role: "VIEWER" };
  return signedIn.user;
}

const get = (slug: string, query: string) =>
  GET(new Request(`http://custodian.test/projects/${slug}/evidence/export?${query}`), { params: Promise.resolve({ slug }) });

describe("the Evidence export", () => {
  it("writes evidence.export naming who exported which question over which scope, as what", async () => {
    const project = await makeTestProject("export-audit");
    const reviewer = await signInAsViewerOf(project.id);
    const { session } = await upsertSession(project.id, { externalId: "exported", runtime: "test" });
    const response = await get(project.slug, `q=modified-system-config&session=${session.id}&from=2026-01-01&format=csv`);
    expect(response.status).toBe(200);
    const rows = await db().auditLog.findMany({ where: { projectId: project.id, act: "evidence.export" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: "USER",
      actorId: reviewer.id,
      actorLabel: reviewer.email,
      targetType: "project",
      targetId: project.id,
      after: {
        question: { id: "modified-system-config" },
        scope: { sessionIds: [session.id], from: "2026-01-01T00:00:00.000Z" },
        format: "csv",
        citations: 0,
        exportSha256: response.headers.get("X-Custodian-Export-Sha256"),
      },
    });
    const [meta] = (await response.text()).split("\r\n\r\n");
    expect(meta).toContain(`"asked_by","${reviewer.email}"`);
  });

  it("downloads the sealed document, whose hash the audit row names and verification confirms", async () => {
    const project = await makeTestProject("export-json");
    const reviewer = await signInAsViewerOf(project.id);
    const response = await get(project.slug, "q=deleted-files&format=json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="custodian-deleted-files-/);
    const document = parseExportDocument(await response.text());
    expect(document).toMatchObject({ project: { slug: project.slug }, askedBy: { id: reviewer.id, email: reviewer.email } });
    // An empty project: never NO.
    expect(document.answer).toMatchObject({ answer: "INSUFFICIENT_EVIDENCE", noSpansInScope: true });
    expect(response.headers.get("X-Custodian-Export-Sha256")).toBe(document.exportSha256);
    expect(await verifyExport(document)).toMatchObject({ ok: true, citations: 0 });
    const [row] = await db().auditLog.findMany({ where: { projectId: project.id, act: "evidence.export" } });
    expect(row!.after).toMatchObject({ format: "json", exportSha256: document.exportSha256 });
  });

  it("a refused export (no question) writes nothing", async () => {
    const project = await makeTestProject("export-refused");
    await signInAsViewerOf(project.id);
    const response = await get(project.slug, "");
    expect(response.status).toBe(422);
    expect(await db().auditLog.count({ where: { projectId: project.id, act: "evidence.export" } })).toBe(0);
  });

  it("a person who is not a member gets 404, as for a project that does not exist, and nothing is written", async () => {
    const [mine, theirs] = [await makeTestProject("export-mine"), await makeTestProject("export-theirs")];
    await signInAsViewerOf(mine.id);
    const { session } = await upsertSession(theirs.id, { externalId: "theirs", runtime: "test" });
    const foreign = await get(theirs.slug, `q=modified-system-config&session=${session.id}`);
    expect(foreign.status).toBe(404);
    const unknown = await get("no-such-project", "q=modified-system-config");
    expect(unknown.status).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());
    // Naming the other project's session from one's own project finds nothing either.
    expect((await get(mine.slug, `q=modified-system-config&session=${session.id}`)).status).toBe(404);
    expect(await db().auditLog.count({ where: { projectId: theirs.id, act: "evidence.export" } })).toBe(0);
    signedIn.user = null;
    expect((await get(mine.slug, "q=modified-system-config")).status).toBe(401);
  });
});
