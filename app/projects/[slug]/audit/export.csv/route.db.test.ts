import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { type AuditEntry, writeAudits } from "@/lib/server/audit";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js. Their
// membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));

const { GET } = await import("./route");

async function signInAsViewerOf(projectId: string) {
  const email = `auditor-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Auditor", role: "VIEWER" };
}

const get = (slug: string, query = "") =>
  GET(new Request(`http://custodian.test/projects/${slug}/audit/export.csv?${query}`), { params: Promise.resolve({ slug }) });

function pins(projectId: string, count: number, label: string): AuditEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    projectId,
    actor: { type: "USER" as const, label },
    act: "original.pin" as const,
    targetType: "span" as const,
    targetId: randomUUID(),
    before: { pinned: false as const },
    after: { pinned: true as const },
    reason: i === 0 ? '=HYPERLINK("http://evil")' : `hold ${i}`,
    at: new Date(Date.UTC(2026, 10, 1) + i * 1000),
  }));
}

describe("the audit log's CSV export", () => {
  it("a member downloads every matching event as an attachment, in chunks, formulas defused", async () => {
    const project = await makeTestProject("audit-export");
    await signInAsViewerOf(project.id);
    await writeAudits(db(), [...pins(project.id, 1_203, "ada@example.com"), ...pins(project.id, 5, "bo@example.com")]);
    const response = await get(project.slug, "person=ada%40example.com&sort=oldest");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-log-audit-export-[a-f0-9]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const records = (await response.text()).split("\r\n").filter(Boolean);
    expect(records[0]).toMatch(/^when,who,who_type,act,act_code,target,/);
    expect(records).toHaveLength(1 + 1_203);
    expect(records[1]).toContain(`,"'=HYPERLINK(""http://evil"")",`);
    expect(
      records.slice(1).every((r) => r.startsWith("2026-11-01T") && r.includes(",ada@example.com,person,Pinned original,")),
    ).toBe(true);
    // Taking the log out is itself in the log: who, and which part of it.
    const exported = await db().auditLog.findMany({ where: { projectId: project.id, act: "audit.export" } });
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({
      actorLabel: signedIn.user!.email,
      after: { format: "csv", filters: { person: "ada@example.com", sort: "oldest" } },
    });
  });

  it("a bad filter is a 422 naming the field; a stranger gets 404 as for no project; no session is 401", async () => {
    const [mine, theirs] = [await makeTestProject("audit-export-mine"), await makeTestProject("audit-export-theirs")];
    await signInAsViewerOf(mine.id);
    await writeAudits(db(), pins(theirs.id, 2, "secret@example.com"));
    const bad = await get(mine.slug, "from=yesterday");
    expect(bad.status).toBe(422);
    expect((await bad.json()).error).toMatchObject({ code: "VALIDATION_FAILED", fields: [{ path: "from" }] });
    const foreign = await get(theirs.slug);
    expect(foreign.status).toBe(404);
    const unknown = await get("no-such-project");
    expect(await foreign.json()).toEqual(await unknown.json());
    // One's own project's export holds nothing of the other's.
    expect(await (await get(mine.slug)).text()).not.toContain("secret@example.com");
    signedIn.user = null;
    expect((await get(mine.slug)).status).toBe(401);
  });
});
