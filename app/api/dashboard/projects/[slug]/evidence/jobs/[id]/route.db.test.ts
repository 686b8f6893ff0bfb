import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { addMember } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { answerOrQueue, askEvidenceQuestion, type QuestionJobJson } from "@/lib/server/questions";

// Who is signed in: the one thing a route test cannot get from a request outside Next.js. Their
// membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));

const { GET } = await import("./route");

async function signInAsViewerOf(projectId: string) {
  const email = `asker-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Asker", role: "VIEWER" };
}

const get = (slug: string, id: string) =>
  GET(new Request(`http://custodian.test/api/dashboard/projects/${slug}/evidence/jobs/${id}`), {
    params: Promise.resolve({ slug, id }),
  });

/** A project whose sessions wrote under /etc/app/ many times. */
async function projectWithWrites(label: string, sessions = 3, writes = 40) {
  const project = await makeTestProject(label);
  for (let s = 0; s < sessions; s++) {
    const { session } = await upsertSession(project.id, { externalId: `s${s}`, runtime: "claude-code", cwd: "/home/dev" });
    await appendSpans(
      project.id,
      session.id,
      Array.from({ length: writes }, (_, i) => ({
        seq: i,
        kind: "TOOL_CALL" as const,
        toolName: "write_file",
        occurredAt: new Date(),
        body: new TextEncoder().encode(`write_file(path="/etc/app/<b>conf-${i}</b>.yaml")`),
      })),
    );
  }
  return project;
}

const QUESTION = { predicate: { valuePrefixes: ["/etc/app/"] }, title: "Wrote under /etc/app/" };
/** The page's first page of each list. */
const FIRST_PAGES = { citations: { offset: 0, limit: 100 }, blockers: { offset: 0, limit: 100 } };

describe("the Evidence page's question jobs", () => {
  it("a question not answered within the page's time is a job; its route gives members progress, then the answer", async () => {
    const project = await projectWithWrites("evidence-job-route");
    const input = { projectId: project.id, question: QUESTION };
    const asked = await answerOrQueue(input, "asker@example.com", { withinMs: 0, pages: FIRST_PAGES });
    expect("job" in asked).toBe(true);
    const job = (asked as { job: QuestionJobJson }).job;
    expect(job).toMatchObject({ status: "RUNNING", answer: null, error: null });

    await signInAsViewerOf(project.id);
    let polled: QuestionJobJson | undefined;
    for (let i = 0; i < 300; i++) {
      const response = await get(project.slug, job.id);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      polled = (await response.json()) as QuestionJobJson;
      if (polled.status !== "RUNNING") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const direct = await askEvidenceQuestion(input);
    expect(polled).toMatchObject({
      id: job.id,
      status: "DONE",
      error: null,
      sessionsDone: 3,
      sessionsTotal: 3,
      candidateSpans: 120,
    });
    expect(polled!.answer).toMatchObject({
      answer: "YES",
      question: { title: "Wrote under /etc/app/" },
      citationCount: direct.citationCount,
      blockerCount: 0,
      sessionsInScope: 3,
    });
    expect(direct.citationCount).toBeGreaterThan(100);
    // The job keeps the page asked for of each list, in the answer's order; the export has the rest.
    expect(polled!.answer!.citations.map((c) => `${c.spanId}:${c.byteStart}`)).toEqual(
      direct.citations.slice(0, 100).map((c) => `${c.spanId}:${c.byteStart}`),
    );
    expect(polled!.answer!.pages.citations).toEqual({ offset: 0, next: 100 });
  });

  it("answers 404 JSON to a non-member and for another project's job, 401 signed out, before reading the job", async () => {
    const project = await projectWithWrites("evidence-job-private", 1, 5);
    const other = await makeTestProject("evidence-job-other");
    const asked = await answerOrQueue({ projectId: project.id, question: QUESTION }, "asker@example.com", { withinMs: 0 });
    const { job } = asked as { job: QuestionJobJson };

    signedIn.user = null;
    expect((await get(project.slug, job.id)).status).toBe(401);

    await signInAsViewerOf(other.id);
    for (const [slug, id] of [
      [project.slug, job.id],
      [other.slug, job.id],
      [other.slug, "not-a-uuid"],
      ["no-such-project", job.id],
    ] as const) {
      const response = await get(slug, id);
      expect({ slug, id, status: response.status }).toEqual({ slug, id, status: 404 });
      const body = await response.json();
      expect(body.error.code).toBe("NOT_FOUND");
      expect(JSON.stringify(body)).not.toContain("/etc/app/");
    }
  });

  it("a bad question fails at once, as on the page before, and queues nothing", async () => {
    const project = await makeTestProject("evidence-job-bad");
    await expect(
      answerOrQueue({ projectId: project.id, question: { predicate: { valuePattern: "(a)\\1" } } }, "asker@example.com", {
        withinMs: 60_000,
      }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
