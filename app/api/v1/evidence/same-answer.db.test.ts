/**
 * One question, six ways to ask it: the API (answered at once, and as a job polled at
 * /api/v1/evidence/jobs/{id}), the Evidence page (at once, and as a job its dashboard route
 * serves), and the MCP tool (at once, and as a job polled with evidence_job). Every answer is
 * equal field for field: one presenter, one job protocol (every poll has the same fields), one
 * stored shape (a job's row holds the answer its readers are given). MCP's structured content is
 * the API's JSON, and its text that content written out.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { QuestionJobSchema } from "@/lib/api/evidence-schemas";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { addMember } from "@/lib/server/admin";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { candidateSummaryFor } from "@/lib/server/gate/candidate-summary";
import { reclaim } from "@/lib/server/gate/reclaim";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { answerEvidencePage, type EvidenceAnswerJson, type QuestionJobJson } from "@/lib/server/questions";
import { GET as apiJob } from "./jobs/[id]/route";
import { POST as apiQuery } from "./query/route";

// Who is signed in to the dashboard: the one thing a route test cannot get from a request outside
// Next.js. Their membership of the project is real, read from the database.
const signedIn = vi.hoisted(() => ({ user: null as null | { id: string; email: string; name: string; role: "VIEWER" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => signedIn.user }));
const { GET: dashboardJob } = await import("@/app/api/dashboard/projects/[slug]/evidence/jobs/[id]/route");
const { POST: mcpRoute } = await import("../mcp/route");

const DAY = "2026-01-02";
const AT = (seconds: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, seconds));
const OUT_OF_SCOPE = new Date(Date.UTC(2026, 0, 5));

let project: { id: string; slug: string };
let headers: Record<string, string>;
let listener: RouteListener;
let mcp: Client;

beforeAll(async () => {
  // Structured originals expire before the horizon, so only an honest summary may replace them.
  project = await makeTestProject("same-answer", { ...DEFAULT_POLICY, ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 30 } });
  const { session } = await upsertSession(project.id, { externalId: "writes", runtime: "claude-code", cwd: "/srv/app" });
  const write = (seq: number, occurredAt: Date) => {
    const input = { path: `/etc/app/conf-${seq}.yaml`, content: "x" };
    return {
      seq,
      kind: "TOOL_CALL" as const,
      toolName: "write_file",
      toolInput: input,
      occurredAt,
      body: new TextEncoder().encode(JSON.stringify(input)),
    };
  };
  // 30 writes on the day in scope, 95 after it.
  await appendSpans(project.id, session.id, [
    ...Array.from({ length: 30 }, (_, i) => write(i, AT(i))),
    ...Array.from({ length: 95 }, (_, i) => write(30 + i, OUT_OF_SCOPE)),
  ]);
  // Two results under /srv/ an honest summary replaced, their originals past their TTL: blockers
  // that dropped a path, whose originals are still held (pin unblocks them).
  for (const label of ["replaced-a", "replaced-b"]) {
    const { session: other } = await upsertSession(project.id, { externalId: label, runtime: "claude-code", cwd: "/srv/app" });
    const [span] = await appendSpans(project.id, other.id, [
      { seq: 0, kind: "TOOL_RESULT", occurredAt: AT(5), body: new TextEncoder().encode("Copied 52 files to /srv/app/out") },
    ]);
    const summary = await candidateSummaryFor(other.id, [span!.id], "Copied the build output.", { pointers: true, honest: true });
    const outcome = await reclaim({
      projectId: project.id,
      sessionId: other.id,
      selection: { spanIds: [span!.id] },
      summary,
      dryRun: false,
      requester: "test",
    });
    expect(outcome.decisions[0]!.verdict).toBe("RECLAIM_HONEST");
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: other.id, spanId: span!.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
  }
  const key = (await createApiKey(project.id, "reader", "VIEWER", TEST_ACTOR)).key;
  headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const email = `viewer-${randomUUID()}@example.com`;
  const { userId } = await addMember({ projectId: project.id, email, role: "VIEWER" }, TEST_ACTOR);
  signedIn.user = { id: userId, email, name: "Viewer", role: "VIEWER" };
  listener = await listenWith(mcpRoute);
  mcp = new Client({ name: "test", version: "1" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("/api/v1/mcp", listener.url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
});

afterAll(async () => {
  await mcp.close();
  await listener.close();
});

/** The fields of a job as every reader polls it. */
const JOB_FIELDS = Object.keys(QuestionJobSchema.shape).sort();

/**
 * Polls the job handed back (`first`) until it ends; its answer. The job as handed back and every
 * poll have the same fields, and the answer stored in the job's row is the one polled: one stored
 * shape, whoever asked.
 */
async function untilDone(first: QuestionJobJson, poll: () => Promise<QuestionJobJson>): Promise<EvidenceAnswerJson> {
  expect(Object.keys(first).sort()).toEqual(JOB_FIELDS);
  for (let i = 0; i < 600; i++) {
    const job = await poll();
    expect(Object.keys(job).sort()).toEqual(JOB_FIELDS);
    if (job.status !== "RUNNING") {
      expect(job).toMatchObject({ status: "DONE", error: null });
      const row = await db().questionJob.findUniqueOrThrow({ where: { id: job.id } });
      expect(row.answer).toEqual(job.answer);
      return job.answer!;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the job did not end");
}

/** A question as each reader asks it, for the page of each list that starts at `offset`. */
interface Asked {
  api: { question: unknown; scope?: Record<string, unknown> };
  page: string;
}

async function viaApi(asked: Asked, offset: number, async: boolean): Promise<EvidenceAnswerJson> {
  const window = { offset, limit: 50 };
  const body = { ...asked.api, page: { citations: window, blockers: window }, ...(async ? { async } : {}) };
  const response = await apiQuery(
    new Request("http://t/api/v1/evidence/query", { method: "POST", headers, body: JSON.stringify(body) }),
    { params: Promise.resolve({}) },
  );
  if (!async) {
    expect(response.status).toBe(200);
    return response.json();
  }
  expect(response.status).toBe(202);
  const { job } = (await response.json()) as { job: QuestionJobJson };
  return untilDone(job, async () => {
    const polled = await apiJob(new Request(`http://t/api/v1/evidence/jobs/${job.id}`, { headers }), {
      params: Promise.resolve({ id: job.id }),
    });
    expect(polled.status).toBe(200);
    return polled.json();
  });
}

async function viaPage(asked: Asked, offset: number, async: boolean): Promise<EvidenceAnswerJson> {
  const page = offset / 100 + 1;
  const params = new URLSearchParams(`${asked.page}&cpage=${page}&bpage=${page}`);
  const answered = await answerEvidencePage(project.id, params, "viewer", { withinMs: async ? 0 : 60_000 });
  if (!async) return (answered as { answer: EvidenceAnswerJson }).answer;
  const { job } = answered as { job: QuestionJobJson };
  expect(job.status).toBe("RUNNING");
  return untilDone(job, async () => {
    const polled = await dashboardJob(new Request(`http://t/api/dashboard/projects/${project.slug}/evidence/jobs/${job.id}`), {
      params: Promise.resolve({ slug: project.slug, id: job.id }),
    });
    expect(polled.status).toBe(200);
    return polled.json();
  });
}

async function viaMcp(asked: Asked, offset: number, async: boolean): Promise<EvidenceAnswerJson> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // The text a model reads is the structured answer, written out.
    const [text, ...more] = result.content as { type: string; text: string }[];
    expect(more).toEqual([]);
    expect(text!.type).toBe("text");
    expect(JSON.parse(text!.text)).toEqual(result.structuredContent);
    return result.structuredContent as Record<string, unknown>;
  };
  const answered = await call("evidence_query", { ...asked.api, offset, limit: 50, ...(async ? { async } : {}) });
  if (!async) return answered as unknown as EvidenceAnswerJson;
  const { job } = answered as { job: QuestionJobJson };
  return untilDone(job, async () => (await call("evidence_job", { id: job.id })) as unknown as QuestionJobJson);
}

/** The six answers, each equal to the API's answer at once. */
async function expectSixEqual(asked: Asked, offset: number): Promise<EvidenceAnswerJson> {
  const reference = await viaApi(asked, offset, false);
  const others = {
    "API via a job": await viaApi(asked, offset, true),
    "page at once": await viaPage(asked, offset, false),
    "page via a job": await viaPage(asked, offset, true),
    "MCP at once": await viaMcp(asked, offset, false),
    "MCP via a job": await viaMcp(asked, offset, true),
  };
  for (const [path, answer] of Object.entries(others)) expect({ path, answer }).toEqual({ path, answer: reference });
  return reference;
}

describe("an evidence answer asked through the API, the Evidence page and MCP, at once and as a job", () => {
  it("is the same, field for field, for one day's scope: citations, and blockers with every field", async () => {
    // Every reader's first page holds all of it: the page shows 100 rows, MCP 50 at most.
    const answer = await expectSixEqual(
      {
        api: {
          question: { predicate: { valuePrefixes: ["/etc/app/", "/srv/"] } },
          // The page's inclusive day, as the API's instants: from its midnight to the next.
          scope: { from: `${DAY}T00:00:00Z`, to: "2026-01-03T00:00:00Z" },
        },
        page: `q=custom&prefix=/etc/app/%0A/srv/&from=${DAY}&to=${DAY}`,
      },
      0,
    );
    expect(answer).toMatchObject({
      answer: "YES",
      citationCount: 30,
      blockerCount: 2,
      sessionsInScope: 3,
      pages: { citations: { offset: 0, next: null }, blockers: { offset: 0, next: null } },
    });
    expect(answer.citations).toHaveLength(30);
    expect(answer.blockers).toHaveLength(2);
    for (const b of answer.blockers) {
      expect(b).toMatchObject({ originalHeld: true, unblockBy: "pin" });
      expect(b.dropped.map((d) => d.kind)).toContain("PATH");
    }
  });

  it("is the same for a later page of a canned question over the whole project (stored verdicts read again)", async () => {
    const answer = await expectSixEqual(
      { api: { question: { canned: "modified-system-config" } }, page: "q=modified-system-config" },
      100,
    );
    expect(answer).toMatchObject({ citationCount: 125, pages: { citations: { offset: 100, next: null } } });
    expect(answer.citations).toHaveLength(25);
  });
});
