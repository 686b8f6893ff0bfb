import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { refusalRowsOf } from "@/lib/server/dashboard/refusals.testkit";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js. Their
// membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));
// The list's reads, counted: a caller who may not see the project must not reach them at all.
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/server/dashboard", async (original) => {
  const actual = await original<typeof import("@/lib/server/dashboard")>();
  return {
    ...actual,
    refusalFeed: (...args: Parameters<typeof actual.refusalFeed>) => {
      reads.count++;
      return actual.refusalFeed(...args);
    },
  };
});

const { GET } = await import("./route");

async function signInAsViewerOf(projectId: string) {
  const email = `watcher-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Watcher", role: "VIEWER" };
}

const get = (slug: string, query = "") =>
  GET(new Request(`http://custodian.test/api/dashboard/projects/${slug}/refusals?${query}`), {
    params: Promise.resolve({ slug }),
  });

/** A project with 55 gate requests of two refusals each, a minute apart. */
async function projectWithRequests(label: string) {
  const project = await makeTestProject(label);
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test", title: "Refused" });
  const [span] = await appendSpans(project.id, session.id, [
    { seq: 0, kind: "TOOL_CALL", toolName: "Bash", occurredAt: new Date(), body: new TextEncoder().encode('{"command":"ls"}') },
  ]);
  await db().refusalEvent.createMany({
    data: refusalRowsOf(
      { projectId: project.id, sessionId: session.id, spanId: span!.id },
      Array.from({ length: 55 }, (_, i) => ({
        occurredAt: new Date(Date.now() - (i + 1) * 60_000),
        reason: `seeded ${i}`,
        requester: "test",
        cells: [
          ["STRUCTURED", "NONE"],
          ["STRUCTURED", "NONE"],
        ],
      })),
    ),
  });
  return project;
}

describe("the refusal feed route", () => {
  it("answers a member with a page of requests, its totals and the cursor of the next", async () => {
    const project = await projectWithRequests("refusal-route");
    await signInAsViewerOf(project.id);
    const response = await get(project.slug, "range=7d");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const first = await response.json();
    expect(first.totals).toEqual({ requests: 55, refusals: 110, compactions: 0 });
    expect(first.rows).toHaveLength(50);
    expect(first.before).toBeNull();
    const next = await (await get(project.slug, `range=7d&after=${first.after}`)).json();
    expect(next.rows.map((r: { group: { refused: number } }) => r.group.refused)).toEqual([2, 2, 2, 2, 2]);
    expect(next.window).toEqual({ start: 50, end: 55, rows: 55 });
    const bad = await get(project.slug, "after=nonsense");
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.fields).toEqual([expect.objectContaining({ path: "after" })]);
  });

  it("checks the caller before it reads: a non-member gets 404 JSON, as for no such project; signed out is 401", async () => {
    const theirs = await projectWithRequests("refusal-theirs");
    const mine = await makeTestProject("refusal-mine");
    await signInAsViewerOf(mine.id);
    reads.count = 0;
    const response = await get(theirs.slug);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({ error: expect.objectContaining({ code: "NOT_FOUND" }) });
    expect(JSON.stringify(body)).not.toContain("seeded");
    expect((await get("no-such-project")).status).toBe(404);
    signedIn.user = null;
    expect((await get(theirs.slug)).status).toBe(401);
    expect(reads.count).toBe(0);
  });
});
