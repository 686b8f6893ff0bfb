import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as askQuestion } from "@/app/api/v1/evidence/query/route";
import { POST as evaluateGate } from "@/app/api/v1/gate/evaluate/route";
import { GET as openApi } from "@/app/api/v1/openapi.json/route";
import { POST as reclaim } from "@/app/api/v1/reclamations/route";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { GET as readOriginal } from "@/app/api/v1/spans/[id]/original/route";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { MAX_BODY_BYTES } from "./body";
import { LIMITS } from "./schemas";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(
  handler: Handler,
  options: { key?: string; body?: unknown; raw?: BodyInit; params?: Record<string, string>; method?: string },
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const request = new Request("http://custodian.test/api/v1/x", {
    method: options.method ?? "POST",
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    json: type.includes("json") ? await response.json() : null,
    response,
  };
}

const at = "2026-11-30T10:00:00Z";
const writeSpan = (seq: number, path = "/etc/app/conf.yaml") => ({
  seq,
  kind: "TOOL_CALL",
  toolName: "write_file",
  toolInput: { path, mode: "overwrite" },
  occurredAt: at,
  body: JSON.stringify({ path, mode: "overwrite" }),
});
const chatSpan = (seq: number, text = "Sounds good, let's continue.") => ({
  seq,
  kind: "MESSAGE",
  role: "user",
  occurredAt: at,
  body: text,
});

describe("runtime API", () => {
  let key: string;
  let viewerKey: string;
  let otherKey: string;
  let sessionId: string;

  beforeAll(async () => {
    const project = await makeTestProject("api");
    const other = await makeTestProject("api-other");
    key = (await createApiKey(project.id, "runtime", "OPERATOR", TEST_ACTOR)).key;
    viewerKey = (await createApiKey(project.id, "dashboard", "VIEWER", TEST_ACTOR)).key;
    otherKey = (await createApiKey(other.id, "elsewhere", "OPERATOR", TEST_ACTOR)).key;
    const created = await call(createSession, {
      key,
      body: { externalId: "run-1", runtime: "claude-code", cwd: "/home/dev/app" },
    });
    expect(created.status).toBe(200);
    sessionId = created.json.id;
  });

  describe("auth", () => {
    it("401 without a key, with an unknown key, and never a hint", async () => {
      const none = await call(createSession, { body: { externalId: "x", runtime: "r" } });
      expect(none.status).toBe(401);
      expect(none.json.error.code).toBe("UNAUTHENTICATED");
      const bad = await call(createSession, { key: "cust_not-a-key", body: { externalId: "x", runtime: "r" } });
      expect(bad.status).toBe(401);
    });

    it("403 when the key's role lacks the permission", async () => {
      const result = await call(createSession, { key: viewerKey, body: { externalId: "x", runtime: "r" } });
      expect(result.status).toBe(403);
      expect(result.json.error.code).toBe("FORBIDDEN");
    });

    it("429 with Retry-After once a key exceeds its rate", async () => {
      const project = await makeTestProject("api-rate");
      const limited = (await createApiKey(project.id, "busy", "OPERATOR", TEST_ACTOR)).key;
      process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE = "2";
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++)
          statuses.push((await call(createSession, { key: limited, body: { externalId: "busy", runtime: "r" } })).status);
        expect(statuses).toEqual([200, 200, 429]);
        const last = await call(createSession, { key: limited, body: { externalId: "busy", runtime: "r" } });
        expect(last.json.error.code).toBe("RATE_LIMITED");
        expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
      } finally {
        delete process.env.CUSTODIAN_RATE_LIMIT_PER_MINUTE;
      }
    });

    it("404 for another project's session, as if it did not exist", async () => {
      const result = await call(appendSpans, { key: otherKey, params: { id: sessionId }, body: { spans: [chatSpan(0)] } });
      expect(result.status).toBe(404);
      expect(result.json.error.code).toBe("NOT_FOUND");
    });
  });

  describe("sessions", () => {
    it("upserts by external id", async () => {
      const again = await call(createSession, { key, body: { externalId: "run-1", runtime: "claude-code", title: "Renamed" } });
      expect(again.json).toMatchObject({ id: sessionId, created: false, title: "Renamed", cwd: "/home/dev/app" });
    });
  });

  describe("spans", () => {
    it("appends a batch and returns class, atom count and sha256 per span", async () => {
      const result = await call(appendSpans, { key, params: { id: sessionId }, body: { spans: [chatSpan(0), writeSpan(1)] } });
      expect(result.status).toBe(200);
      expect(result.json.spans).toHaveLength(2);
      expect(result.json.spans[1]).toMatchObject({ seq: 1, class: "SIDE_EFFECTING", created: true });
      expect(result.json.spans[1].atomCount).toBeGreaterThan(0);
      expect(result.json.spans[1].sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("is idempotent: resubmitting the same spans is a no-op returning the same result", async () => {
      const first = await call(appendSpans, { key, params: { id: sessionId }, body: { spans: [chatSpan(2)] } });
      const again = await call(appendSpans, { key, params: { id: sessionId }, body: { spans: [chatSpan(2)] } });
      expect(again.status).toBe(200);
      expect(again.json.spans[0]).toEqual({ ...first.json.spans[0], created: false });
      expect(await db().span.count({ where: { sessionId, seq: 2 } })).toBe(1);
    });

    it("concurrent submissions of the same spans store them once and answer both alike", async () => {
      const batch = { spans: [chatSpan(20), writeSpan(21)] };
      const [a, b] = await Promise.all([
        call(appendSpans, { key, params: { id: sessionId }, body: batch }),
        call(appendSpans, { key, params: { id: sessionId }, body: batch }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const strip = (spans: Array<Record<string, unknown>>) => spans.map(({ created: _created, ...rest }) => rest);
      expect(strip(a.json.spans)).toEqual(strip(b.json.spans));
      expect([...a.json.spans, ...b.json.spans].filter((s: { created: boolean }) => s.created)).toHaveLength(2);
      expect(await db().span.count({ where: { sessionId, seq: { in: [20, 21] } } })).toBe(2);
    });

    it("a NUL character in a text field is a 422 naming the field, not a database error", async () => {
      const result = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: { spans: [{ ...chatSpan(30), role: "assis\u0000tant" }] },
      });
      expect(result.status).toBe(422);
      expect(result.json.error.fields[0].path).toBe("spans.0.role");
      // Tool input is stored exactly, NUL included (as its JSON text where jsonb cannot hold it).
      const nested = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: { spans: [{ ...writeSpan(31), toolInput: { path: "/etc/x\u0000" } }] },
      });
      expect(nested.status).toBe(200);
      const session = await call(createSession, {
        key,
        body: { externalId: "run-nul", runtime: "claude-code", title: "a\u0000b" },
      });
      expect([session.status, session.json.error.fields[0].path]).toEqual([422, "title"]);
      expect(await db().span.count({ where: { sessionId, seq: 30 } })).toBe(0);
    });

    it("409 for the same seq with other bytes, changing nothing", async () => {
      const before = await db().span.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
      const result = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: { spans: [chatSpan(3), chatSpan(2, "different words")] },
      });
      expect(result.status).toBe(409);
      expect(result.json.error.code).toBe("CONFLICT");
      expect(result.json.error.fields[0].path).toBe("spans.1.seq");
      expect(await db().span.findMany({ where: { sessionId }, orderBy: { seq: "asc" } })).toEqual(before);
    });

    it("a batch that fails mid-way leaves nothing behind", async () => {
      const count = await db().span.count({ where: { sessionId } });
      const result = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: { spans: [chatSpan(10), { ...chatSpan(11), body: "%%%", bodyEncoding: "base64" }] },
      });
      expect(result.status).toBe(422);
      expect(result.json.error.fields[0].path).toBe("spans.1.body");
      expect(await db().span.count({ where: { sessionId } })).toBe(count);
    });

    it("stores bodies as bytes: invalid UTF-8 arrives base64 and comes back byte for byte", async () => {
      const bytes = Buffer.from([0x77, 0x72, 0x6f, 0x74, 0x65, 0x20, 0xff, 0xfe, 0x2f, 0x65, 0x74, 0x63]);
      const result = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: {
          spans: [{ seq: 4, kind: "TOOL_RESULT", occurredAt: at, body: bytes.toString("base64"), bodyEncoding: "base64" }],
        },
      });
      expect(result.status).toBe(200);
      const original = await call(readOriginal, { key, method: "GET", params: { id: result.json.spans[0].id } });
      expect(original.status).toBe(200);
      expect(Buffer.from(await original.response.arrayBuffer())).toEqual(bytes);
      expect(original.headers.get("x-custodian-sha256")).toBe(result.json.spans[0].sha256);
    });

    it("400 for malformed JSON, 422 with field paths for schema violations", async () => {
      const malformed = await call(appendSpans, { key, params: { id: sessionId }, raw: '{"spans": [' });
      expect(malformed.status).toBe(400);
      expect(malformed.json.error.code).toBe("INVALID_JSON");
      const wrong = await call(appendSpans, {
        key,
        params: { id: sessionId },
        body: { spans: [{ ...chatSpan(5), seq: "five" }] },
      });
      expect(wrong.status).toBe(422);
      expect(wrong.json.error.fields.map((f: { path: string }) => f.path)).toContain("spans.0.seq");
    });

    it("413 past the body limit and for an oversized span, saying the limit", async () => {
      const huge = await call(appendSpans, { key, params: { id: sessionId }, raw: new Uint8Array(MAX_BODY_BYTES + 1) });
      expect(huge.status).toBe(413);
      expect(huge.json.error.details.maxBodyBytes).toBe(MAX_BODY_BYTES);
      const bigSpan = { ...chatSpan(6), body: "x".repeat(LIMITS.maxSpanBytes + 1) };
      const oversized = await call(appendSpans, { key, params: { id: sessionId }, body: { spans: [bigSpan] } });
      expect(oversized.status).toBe(413);
      expect(oversized.json.error.fields[0].path).toBe("spans.0.body");
    });

    it("422 for too many spans in one batch", async () => {
      const spans = Array.from({ length: LIMITS.maxSpansPerBatch + 1 }, (_, i) => chatSpan(100 + i));
      const result = await call(appendSpans, { key, params: { id: sessionId }, body: { spans } });
      expect(result.status).toBe(422);
      expect(result.json.error.fields[0].path).toBe("spans");
    });

    it("404 for a session id that is not a uuid", async () => {
      const result = await call(appendSpans, { key, params: { id: "not-a-uuid" }, body: { spans: [chatSpan(0)] } });
      expect(result.status).toBe(404);
    });
  });

  describe("gate", () => {
    it("evaluates reported facts without storing anything", async () => {
      const decisions = await db().gateDecision.count();
      const result = await call(evaluateGate, {
        key,
        body: {
          spans: [
            {
              id: "a",
              content: 'write_file(path="/etc/app/conf.yaml", mode="overwrite")',
              kind: "TOOL_CALL",
              toolName: "write_file",
              hasPointer: false,
              originalRetrievable: true,
            },
            { id: "b", class: "NARRATIVE", hasPointer: false, originalRetrievable: false },
          ],
          summary: { text: "The agent configured the application's YAML configuration." },
        },
      });
      expect(result.status).toBe(200);
      expect(result.json.results[0]).toMatchObject({
        id: "a",
        verdict: "REFUSE",
        cell: { class: "SIDE_EFFECTING", provenance: "NONE" },
      });
      expect(result.json.results[0].atomsAtRisk.length).toBeGreaterThan(0);
      expect(result.json.results[1]).toMatchObject({ id: "b", verdict: "RECLAIM" });
      expect(await db().gateDecision.count()).toBe(decisions);
    });

    it("422 when a span gives neither class nor content", async () => {
      const result = await call(evaluateGate, {
        key,
        body: { spans: [{ id: "a", hasPointer: true, originalRetrievable: true }] },
      });
      expect(result.status).toBe(422);
      expect(result.json.error.fields[0].path).toBe("spans.0.class");
    });
  });

  describe("reclamations", () => {
    it("refuses a pointerless lossy summary of a side-effecting span and records the refusal; the span stays verbatim", async () => {
      const created = await call(createSession, { key, body: { externalId: `reclaim-${randomUUID()}`, runtime: "claude-code" } });
      const id = created.json.id;
      const spans = await call(appendSpans, { key, params: { id }, body: { spans: [chatSpan(0), writeSpan(1)] } });
      const write = spans.json.spans[1];

      const dry = await call(reclaim, {
        key,
        body: { sessionId: id, fromSeq: 0, toSeq: 1, summary: { text: "Configured YAML." }, dryRun: true },
      });
      expect(dry.status).toBe(200);
      expect(dry.json.summarySpanId).toBeNull();
      expect(await db().gateDecision.count({ where: { sessionId: id } })).toBe(0);

      const real = await call(reclaim, {
        key,
        body: {
          sessionId: id,
          fromSeq: 0,
          toSeq: 1,
          summary: { text: "The agent configured the application's YAML configuration." },
        },
      });
      expect(real.status).toBe(200);
      expect(real.json.results.map((r: { verdict: string }) => r.verdict)).toEqual(["RECLAIM", "REFUSE"]);
      expect(real.json.summarySpanId).toMatch(/^[0-9a-f-]{36}$/);
      const stored = await db().span.findFirstOrThrow({ where: { sessionId: id, id: write.id } });
      expect(stored.transcriptState).toBe("PRESERVED");
      const refusal = await db().refusalEvent.findFirstOrThrow({ where: { sessionId: id, spanId: write.id } });
      expect(refusal).toMatchObject({
        cellClass: "SIDE_EFFECTING",
        cellProvenance: "NONE",
        requester: expect.stringMatching(/^api-key:cust_/),
      });

      const withPointer = await call(reclaim, {
        key,
        body: {
          sessionId: id,
          spanIds: [write.id],
          summary: {
            text: "Wrote the staging config.",
            pointers: [{ spanId: write.id, byteStart: 0, byteEnd: 10, sha256: write.sha256 }],
          },
        },
      });
      expect(withPointer.json.results[0].verdict).toBe("RECLAIM");
      const again = await call(reclaim, { key, body: { sessionId: id, spanIds: [write.id], summary: { text: "again" } } });
      expect(again.status).toBe(409);
    });

    it("422 when both spanIds and a seq range are given", async () => {
      const result = await call(reclaim, {
        key,
        body: { sessionId, spanIds: [randomUUID()], fromSeq: 0, toSeq: 1, summary: { text: "x" } },
      });
      expect(result.status).toBe(422);
    });
  });

  describe("originals", () => {
    it("410 with the reason once the original is gone", async () => {
      const span = await db().span.findFirstOrThrow({ where: { sessionId, seq: 0 } });
      await db().spanOriginal.update({
        where: { sessionId_spanId: { sessionId, spanId: span.id } },
        data: { bytes: null, deletedAt: new Date(), deleteReason: "ttl expired" },
      });
      const result = await call(readOriginal, { key, method: "GET", params: { id: span.id } });
      expect(result.status).toBe(410);
      expect(result.json.error.message).toContain("ttl expired");
    });

    it("404 for another project's span", async () => {
      const span = await db().span.findFirstOrThrow({ where: { sessionId, seq: 1 } });
      const result = await call(readOriginal, { key: otherKey, method: "GET", params: { id: span.id } });
      expect(result.status).toBe(404);
    });
  });

  describe("evidence questions", () => {
    it("answers a canned question with citations carrying the verbatim bytes", async () => {
      const result = await call(askQuestion, {
        key,
        body: { question: { canned: "modified-system-config" }, scope: { sessionIds: [sessionId] } },
      });
      expect(result.status).toBe(200);
      expect(result.json.answer).toBe("YES");
      const citation = result.json.citations.find((c: { excerpt: string }) => c.excerpt === "/etc/app/conf.yaml");
      expect(Buffer.from(citation.bytesBase64, "base64").toString()).toBe("/etc/app/conf.yaml");
    });

    it("pages through long lists: the counts of all, the window asked for", async () => {
      const created = await call(createSession, { key, body: { externalId: `paged-${randomUUID()}`, runtime: "claude-code" } });
      const appended = await call(appendSpans, {
        key,
        params: { id: created.json.id },
        body: { spans: [0, 1, 2].map((seq) => writeSpan(seq, `/etc/app/conf-${seq}.yaml`)) },
      });
      expect(appended.status).toBe(200);
      const ask = (page?: unknown) =>
        call(askQuestion, {
          key,
          body: {
            question: { canned: "modified-system-config" },
            scope: { sessionIds: [created.json.id] },
            ...(page ? { page } : {}),
          },
        });
      const all = await ask();
      expect(all.json.citationCount).toBe(all.json.citations.length);
      expect(all.json.citationCount).toBeGreaterThanOrEqual(3);
      const second = await ask({ citations: { offset: 1, limit: 1 } });
      expect(second.json).toMatchObject({
        answer: "YES",
        citationCount: all.json.citationCount,
        citations: [all.json.citations[1]],
      });
      expect((await ask({ citations: { offset: 1000 } })).json).toMatchObject({
        citations: [],
        citationCount: all.json.citationCount,
      });
      const tooLong = await ask({ blockers: { limit: LIMITS.evidenceListMax + 1 } });
      expect(tooLong.status).toBe(422);
      expect(tooLong.json.error.fields[0].path).toBe("page.blockers.limit");
    });

    it("422 for an unknown canned question or an invalid predicate", async () => {
      const unknown = await call(askQuestion, { key, body: { question: { canned: "did-we-win" } } });
      expect(unknown.status).toBe(422);
      expect(unknown.json.error.fields[0].path).toBe("question.canned");
      const invalid = await call(askQuestion, { key, body: { question: { predicate: { valuePattern: "(" } } } });
      expect(invalid.status).toBe(422);
      expect(invalid.json.error.fields[0].path).toMatch(/^question\.predicate/);
    });
  });

  it("serves an OpenAPI 3.1 document generated from the schemas", async () => {
    const response = openApi();
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/sessions",
        "/api/v1/sessions/{id}/spans",
        "/api/v1/gate/evaluate",
        "/api/v1/reclamations",
        "/api/v1/spans/{id}/original",
      ]),
    );
    expect(
      doc.paths["/api/v1/sessions/{id}/spans"].post.requestBody.content["application/json"].schema.properties.spans.maxItems,
    ).toBe(LIMITS.maxSpansPerBatch);
  });
});
