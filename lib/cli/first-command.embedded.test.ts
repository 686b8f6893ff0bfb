/**
 * The smoke layer: what a newcomer does after the README's first command, on the embedded
 * database it starts (served from another process over a loopback port, as `npm start` serves it):
 * the canned questions over the demo project, one session, a time range, a custom predicate and a
 * job; a real transcript imported; the what-if and the sweeper; and health still ok after each.
 * A query that waits on another of the same request never answers here: the test fails at its
 * time limit instead of a user's page hanging.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/v1/health/route";
import { POST as ask } from "@/app/api/v1/evidence/query/route";
import { GET as job } from "@/app/api/v1/evidence/jobs/[id]/route";
import { GET as importJob } from "@/app/api/v1/imports/[id]/route";
import { POST as importFile } from "@/app/api/v1/imports/route";
import { POST as mcp } from "@/app/api/v1/mcp/route";
import { POST as receiveTraces } from "@/app/api/otlp/v1/traces/route";
import { POST as hookSync } from "@/app/api/v1/hooks/sync/route";
import { GET as original } from "@/app/api/v1/spans/[id]/original/route";
import { OVER_LIMIT } from "@/lib/core/limits";
import { runHook } from "./hook";
import { importTranscript } from "@/lib/importers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { POST as simulate } from "@/app/api/v1/retention/simulations/route";
import { db } from "@/lib/db/client";
import { CANNED_QUESTION_IDS } from "@/lib/evidence/questions";
import { callRoute } from "@/lib/fuzz/call";
import { listenWith } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { TEST_ACTOR } from "@/lib/server/admin/test-project";
import { sweep } from "@/lib/server/retention";
import { exportEvidence, verifyExport } from "@/lib/server/questions";

let viewer: string;
let operator: string;
let admin: string;
let sessionId: string;
let project: { id: string; slug: string; name: string };

beforeAll(async () => {
  project = await db().project.findUniqueOrThrow({ where: { slug: "demo" } });
  viewer = (await createApiKey(project.id, "smoke viewer", "VIEWER", TEST_ACTOR)).key;
  operator = (await createApiKey(project.id, "smoke operator", "OPERATOR", TEST_ACTOR)).key;
  admin = (await createApiKey(project.id, "smoke admin", "ADMIN", TEST_ACTOR)).key;
  sessionId = (await db().session.findFirstOrThrow({ where: { projectId: project.id }, orderBy: { createdAt: "asc" } })).id;
});

async function expectHealthy() {
  const { status, json } = await callRoute(health, { method: "GET", path: "/api/v1/health" });
  expect(json).toMatchObject({ status: "ok", database: "embedded", migrations: "current" });
  expect(status).toBe(200);
}

const question = (body: unknown, key = viewer) => callRoute(ask, { key, body, path: "/api/v1/evidence/query" });

describe("the first command's embedded database", () => {
  it("answers health before anything is asked", expectHealthy);

  it("answers every canned question over the whole demo project, and stays healthy", async () => {
    for (const canned of CANNED_QUESTION_IDS) {
      const { status, json } = await question({ question: { canned }, scope: {} });
      expect(status, canned).toBe(200);
      expect(["YES", "NO", "INSUFFICIENT_EVIDENCE"]).toContain(json.answer);
    }
    // Asked again, stored verdicts answer.
    const again = await question({ question: { canned: "modified-system-config" }, scope: {} });
    expect(again.status).toBe(200);
    await expectHealthy();
  });

  it("answers over one session, a time range and a custom predicate", async () => {
    const one = await question({ question: { canned: "modified-system-config" }, scope: { sessionIds: [sessionId] } });
    expect(one.status).toBe(200);
    const to = new Date();
    const from = new Date(to.getTime() - 90 * 86_400_000);
    const ranged = await question({
      question: { canned: "modified-system-config" },
      scope: { from: from.toISOString(), to: to.toISOString() },
    });
    expect(ranged.status).toBe(200);
    expect(ranged.json.noSpansInScope).toBe(false);
    const custom = await question({
      question: { predicate: { atomKinds: ["PATH"], valuePrefixes: ["/etc/"] }, title: "Touched /etc?" },
    });
    expect(custom.status).toBe(200);
    await expectHealthy();
  });

  it("answers a question asked as a job", async () => {
    const queued = await question({ question: { canned: "modified-system-config" }, scope: {}, async: true });
    expect(queued.status).toBe(202);
    const id = queued.json.job.id as string;
    let polled = await callRoute(job, { key: viewer, method: "GET", params: { id }, path: `/api/v1/evidence/jobs/${id}` });
    while (polled.json.status === "QUEUED" || polled.json.status === "RUNNING") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = await callRoute(job, { key: viewer, method: "GET", params: { id }, path: `/api/v1/evidence/jobs/${id}` });
    }
    expect(polled.json.status).toBe("DONE");
    expect(["YES", "NO", "INSUFFICIENT_EVIDENCE"]).toContain(polled.json.answer.answer);
  });

  it("imports a real transcript and answers over it", async () => {
    const file = readFileSync(path.resolve("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl"));
    const imported = await callRoute(importFile, { key: operator, raw: file, path: "/api/v1/imports" });
    expect(imported.status).toBe(200);
    const sessions = imported.json.sessions as Array<{ id: string }>;
    expect(sessions.length).toBeGreaterThan(0);
    const answer = await question({ question: { canned: "modified-system-config" }, scope: { sessionIds: [sessions[0]!.id] } });
    expect(answer.status).toBe(200);
    await expectHealthy();
  });

  it("imports a file too large to wait for as a job, and follows it to its end", async () => {
    const file = readFileSync(path.resolve("lib/importers/fixtures/codex/rollout-sample.jsonl"));
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(file.byteLength - 1);
    let started: Awaited<ReturnType<typeof callRoute>>;
    try {
      started = await callRoute(importFile, { key: operator, raw: file, path: "/api/v1/imports?format=codex" });
    } finally {
      delete process.env.CUSTODIAN_SYNC_IMPORT_BYTES;
    }
    expect(started.status).toBe(202);
    const id = started.json.job.id as string;
    const poll = () => callRoute(importJob, { key: operator, method: "GET", params: { id }, path: `/api/v1/imports/${id}` });
    let polled = await poll();
    while (polled.json.status === "QUEUED" || polled.json.status === "RUNNING") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = await poll();
    }
    expect(polled.json.status).toBe("DONE");
    expect(polled.json.outcome.spans).toBeGreaterThan(0);
  });

  it("skips a record over the body cap, named, and serves originals streamed and by range", async () => {
    const record = (uuid: string, text: string) =>
      `{"type":"user","sessionId":"embedded-cap","uuid":"${uuid}","timestamp":"2026-11-30T10:00:00.000Z","message":{"role":"user","content":"${text}"}}\n`;
    const file = `${record("small", "rm -rf /etc/app")}${record("large", "x".repeat(8 * 1024 * 1024 + 1))}`;
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(64 * 1024 * 1024);
    let imported: Awaited<ReturnType<typeof callRoute>>;
    try {
      imported = await callRoute(importFile, { key: operator, raw: file, path: "/api/v1/imports?format=claude-code" });
    } finally {
      delete process.env.CUSTODIAN_SYNC_IMPORT_BYTES;
    }
    expect(imported.status).toBe(200);
    expect(imported.json.records).toMatchObject({ read: 2, used: 1, skipped: 1 });
    expect(imported.json.issues).toEqual([{ line: 2, message: expect.stringMatching(`^${OVER_LIMIT}`) }]);
    const span = await db().span.findFirstOrThrow({ where: { sessionId: imported.json.sessions[0].id } });
    const whole = await callRoute(original, { key: viewer, method: "GET", params: { id: span.id } });
    expect(whole.status).toBe(200);
    expect(whole.text).toContain("rm -rf /etc/app");
    expect(whole.headers.get("x-custodian-sha256")).toBe(span.sha256);
    const part = await callRoute(original, {
      key: viewer,
      method: "GET",
      params: { id: span.id },
      headers: { range: "bytes=0-5" },
    });
    expect(part.status).toBe(206);
    expect(part.text).toBe(whole.text.slice(0, 6));
    await expectHealthy();
  });

  it("imports a session through the pre-compact hook", async () => {
    const listener = await listenWith(hookSync);
    const dir = mkdtempSync(path.join(tmpdir(), "custodian-smoke-hook-"));
    try {
      const bytes = readFileSync(path.resolve("lib/importers/fixtures/claude-code/spotter-subagent-progress.jsonl"));
      const transcript = path.join(dir, "session.jsonl");
      writeFileSync(transcript, bytes);
      const externalId = importTranscript(bytes, "claude-code").sessions[0]!.externalId;
      const payload = JSON.stringify({
        session_id: externalId,
        transcript_path: transcript,
        cwd: dir,
        hook_event_name: "PreCompact",
        trigger: "auto",
        custom_instructions: "",
      });
      const config = {
        url: listener.url,
        key: operator,
        failClosed: false,
        timeoutMs: 10_000,
        ledgerLimit: 40,
        stateDir: path.join(dir, "state"),
      };
      expect(await runHook("claude-code", "pre-compact", payload, config)).toMatchObject({ exitCode: 0 });
      const session = await db().session.findUniqueOrThrow({
        where: { projectId_externalId: { projectId: project.id, externalId } },
      });
      expect(await db().span.count({ where: { sessionId: session.id } })).toBeGreaterThan(0);
    } finally {
      await listener.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("receives OpenTelemetry spans", async () => {
    const traces = readFileSync(path.resolve("lib/importers/fixtures/otel-genai/hand-traces.json"));
    const received = await callRoute(receiveTraces, { key: operator, raw: traces, path: "/api/otlp/v1/traces" });
    expect(received.status).toBe(200);
  });

  it("answers through MCP, and exports an answer that verifies", async () => {
    const listener = await listenWith(mcp);
    const client = new Client({ name: "smoke", version: "1" });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL("/api/v1/mcp", listener.url), {
          requestInit: { headers: { Authorization: `Bearer ${viewer}` } },
        }),
      );
      const asked = await client.callTool({
        name: "evidence_query",
        arguments: { question: { canned: "modified-system-config" } },
      });
      expect(asked.isError).toBeFalsy();
      const ledger = await client.callTool({ name: "side_effect_ledger", arguments: { session: sessionId, limit: 5 } });
      expect(ledger.isError).toBeFalsy();
    } finally {
      await client.close();
      await listener.close();
    }
    const input = { projectId: project.id, question: { canned: "modified-system-config" }, scope: {} };
    const { document } = await exportEvidence({
      input,
      project,
      askedBy: { id: "smoke", email: "smoke@demo.local" },
      format: "json",
    });
    expect((await verifyExport(document)).ok).toBe(true);
    await expectHealthy();
  });

  it("runs the what-if and the sweeper", async () => {
    const whatIf = await callRoute(simulate, {
      key: admin,
      body: { policy: { ttlDays: { SIDE_EFFECTING: 1 } }, horizonDays: 30 },
      path: "/api/v1/retention/simulations",
    });
    expect(whatIf.status).toBe(200);
    expect(whatIf.json.days).toHaveLength(30);
    const swept = await sweep(new Date(Date.now() + 3 * 365 * 86_400_000));
    expect(swept.deleted).toBeGreaterThan(0);
    await expectHealthy();
  });
});
