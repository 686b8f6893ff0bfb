import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { GET as jobRoute } from "@/app/api/v1/evidence/jobs/[id]/route";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { POST } from "./route";

const ask = (headers: Record<string, string>, body: unknown) =>
  POST(new Request("http://t/api/v1/evidence/query", { method: "POST", headers, body: JSON.stringify(body) }), {
    params: Promise.resolve({}),
  });

describe("POST /api/v1/evidence/query", () => {
  it('with "async" answers 202 with a job whose progress, then answer, GET /api/v1/evidence/jobs/{id} returns', async () => {
    const project = await makeTestProject("question-jobs");
    const { session } = await upsertSession(project.id, { externalId: "s", runtime: "claude-code", cwd: "/home/dev/app" });
    const body = (text: string) => new TextEncoder().encode(text);
    await appendSpans(
      project.id,
      session.id,
      Array.from({ length: 20 }, (_, i) => ({
        seq: i,
        kind: "TOOL_CALL" as const,
        toolName: "write_file",
        occurredAt: new Date(),
        body: body(`write_file(path="/etc/app/conf-${i}.yaml", mode="overwrite")`),
      })),
    );
    const key = (await createApiKey(project.id, "reader", "VIEWER", TEST_ACTOR)).key;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const question = { question: { predicate: { valuePrefixes: ["/etc/app/"] } }, page: { citations: { offset: 0, limit: 5 } } };

    const now = await ask(headers, question);
    expect(now.status).toBe(200);
    const direct = await now.json();
    expect(direct).toMatchObject({ answer: "YES", citationCount: 20 });

    const accepted = await ask(headers, { ...question, async: true });
    expect(accepted.status).toBe(202);
    const { job } = (await accepted.json()) as { job: { id: string; status: string } };
    expect(accepted.headers.get("location")).toBe(`/api/v1/evidence/jobs/${job.id}`);
    let polled: { status: string; answer: unknown; candidateSpans: number; error: string | null } | undefined;
    for (let i = 0; i < 300; i++) {
      const response = await jobRoute(new Request(`http://t/api/v1/evidence/jobs/${job.id}`, { headers }), {
        params: Promise.resolve({ id: job.id }),
      });
      expect(response.status).toBe(200);
      polled = await response.json();
      if (polled!.status !== "RUNNING") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(polled).toMatchObject({ status: "DONE", error: null });
    expect(polled!.answer).toEqual(direct);
  });

  it('with "async", an invalid question answers 422 (or 404 for a session not in the project) as without it, and queues no job', async () => {
    const project = await makeTestProject("question-jobs-invalid");
    const key = (await createApiKey(project.id, "reader", "VIEWER", TEST_ACTOR)).key;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const cases: Array<{ body: Record<string, unknown>; status: number; field?: string }> = [
      { body: { question: { predicate: { valuePattern: "(a)\\1" } } }, status: 422, field: "question.predicate.valuePattern" },
      { body: { question: { predicate: { commandPattern: "(" } } }, status: 422, field: "question.predicate.commandPattern" },
      { body: { question: { canned: "no-such-question" } }, status: 422, field: "question.canned" },
      { body: { question: { canned: "modified-system-config" }, scope: { sessionIds: [randomUUID()] } }, status: 404 },
    ];
    for (const { body, status, field } of cases) {
      const sync = await ask(headers, body);
      const queued = await ask(headers, { ...body, async: true });
      expect({ body, status: queued.status }).toEqual({ body, status });
      expect(sync.status).toBe(status);
      const error = ((await queued.json()) as { error: { code: string; fields?: Array<{ path: string }> } }).error;
      expect(error).toEqual(((await sync.json()) as { error: unknown }).error);
      if (field) expect(error.fields?.map((f) => f.path)).toContain(field);
    }
    expect(await db().questionJob.count({ where: { projectId: project.id } })).toBe(0);
  });
});
