import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { refusalRowsOf } from "@/lib/server/dashboard/refusals.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js. Their
// membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));

const { GET, POST } = await import("./route");

async function signInAsViewerOf(projectId: string) {
  const email = `watcher-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Watcher", role: "VIEWER" };
}

const get = (slug: string, query = "") =>
  GET(new Request(`http://custodian.test/api/dashboard/projects/${slug}/overview?${query}`), {
    params: Promise.resolve({ slug }),
  });

/** A project with one refusal now. */
async function projectWithRefusal(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const [span] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("hello") },
  ]);
  await db().refusalEvent.createMany({
    data: refusalRowsOf({ projectId: project.id, sessionId: session.id, spanId: span!.id }, [
      { occurredAt: new Date(), reason: "seeded", requester: "test", cells: [["STRUCTURED", "NONE"]] },
    ]),
  });
  return project;
}

describe("the overview route", () => {
  it("answers a member with the project's figures for the range asked", async () => {
    const project = await projectWithRefusal("overview-route");
    await signInAsViewerOf(project.id);
    const response = await get(project.slug, "range=24h");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.window).toMatchObject({ range: "24h", bucket: "hour", buckets: 24 });
    expect(body.refusals.total).toBe(1);
    expect(body.storage.total.originals).toBe(1);
    expect((await (await get(project.slug)).json()).window.range).toBe("7d");
    // Days, as the lists carry them: today's refusal is in a range ending today, not in one ending yesterday.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const days = await (await get(project.slug, `from=${day(2)}&to=${day(0)}`)).json();
    expect(days.window).toMatchObject({ days: { from: day(2), to: day(0) }, bucket: "day", buckets: 3 });
    expect(days.refusals.total).toBe(1);
    expect((await (await get(project.slug, `from=${day(3)}&to=${day(1)}`)).json()).refusals.total).toBe(0);
  });

  it("a non-member gets 404 JSON, as for a project that does not exist; signed out is 401", async () => {
    const theirs = await projectWithRefusal("overview-theirs");
    const mine = await makeTestProject("overview-mine");
    await signInAsViewerOf(mine.id);
    const response = await get(theirs.slug, "range=7d");
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({ error: expect.objectContaining({ code: "NOT_FOUND" }) });
    expect(JSON.stringify(body)).not.toContain("refusals");
    expect((await get("no-such-project")).status).toBe(404);
    signedIn.user = null;
    expect((await get(mine.slug)).status).toBe(401);
  });

  it("a range it does not offer is 422 naming the field; other methods are 405", async () => {
    const project = await makeTestProject("overview-bad-range");
    await signInAsViewerOf(project.id);
    const response = await get(project.slug, "range=1y");
    expect(response.status).toBe(422);
    expect((await response.json()).error.fields).toEqual([expect.objectContaining({ path: "range" })]);
    const backwards = await get(project.slug, "from=2026-12-05&to=2026-12-01");
    expect(backwards.status).toBe(422);
    expect((await backwards.json()).error.fields).toEqual([expect.objectContaining({ path: "from" })]);
    expect((await (await get(project.slug, "to=2026-02-30")).json()).error.fields).toEqual([
      expect.objectContaining({ path: "to" }),
    ]);
    const post = await POST(
      new Request(`http://custodian.test/api/dashboard/projects/${project.slug}/overview`, { method: "POST" }),
    );
    expect(post.status).toBe(405);
  });
});
