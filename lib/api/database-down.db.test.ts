/**
 * With the database unreachable, the API answers 503 with Retry-After (never 500) and health
 * answers 503 `{status: "degraded", database: "unreachable"}`; when the database is back, the
 * same process serves again without a restart (issue "Hostile input and faults", finding 11).
 * The outage is real: a scratch database whose connections are terminated and refused
 * (ALLOW_CONNECTIONS false), then allowed again.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerDatabaseUrl } from "@/lib/db/test-database";
import { GET as health } from "@/app/api/v1/health/route";
import { GET as listSessions, POST as createSession } from "@/app/api/v1/sessions/route";
import { disconnectDb } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrations";
import { databaseUrlFor, parseDatabaseUrl } from "@/lib/db/pg-pool";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";

describe("database unreachable", () => {
  const testUrl = process.env.DATABASE_URL!;
  // The scratch database is made, and its connections switched off, as the owner of the test server.
  const server = parseDatabaseUrl(ownerDatabaseUrl());
  const name = `custodian_outage_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ ...server, database: "postgres" });
  let key: string;

  const setConnections = async (allowed: boolean) => {
    await admin.query(`alter database "${name}" allow_connections ${allowed}`);
    if (!allowed) await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [name]);
  };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = databaseUrlFor({ ...server, database: name });
    await applyMigrations(url);
    await disconnectDb();
    process.env.DATABASE_URL = url;
    const project = await makeTestProject("outage");
    key = (await createApiKey(project.id, "runtime", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  }, 120_000);

  afterAll(async () => {
    await disconnectDb();
    process.env.DATABASE_URL = testUrl;
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("answers 503 with Retry-After while it is down, and serves again when it is back", async () => {
    const healthy = await callRoute(health, { method: "GET" });
    expect(healthy.status).toBe(200);
    expect(healthy.json.status).toBe("ok");
    expect((await callRoute(listSessions, { key, method: "GET", path: "/api/v1/sessions" })).status).toBe(200);

    await setConnections(false);
    try {
      const down = await callRoute(health, { method: "GET" });
      expect(down.status).toBe(503);
      expect(down.json).toEqual({ status: "degraded", database: "unreachable" });
      expect(Number(down.headers.get("retry-after"))).toBeGreaterThan(0);
      for (const attempt of [
        () => callRoute(listSessions, { key, method: "GET", path: "/api/v1/sessions" }),
        () => callRoute(createSession, { key, body: { externalId: "during-outage", runtime: "r" } }),
      ]) {
        const refused = await attempt();
        expect(refused.status, refused.text).toBe(503);
        expect(refused.json.error.code).toBe("DATABASE_UNAVAILABLE");
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    } finally {
      await setConnections(true);
    }

    const back = await callRoute(health, { method: "GET" });
    expect([back.status, back.json.status]).toEqual([200, "ok"]);
    const created = await callRoute(createSession, { key, body: { externalId: "after-outage", runtime: "r" } });
    expect(created.status).toBe(200);
    expect((await callRoute(listSessions, { key, method: "GET", path: "/api/v1/sessions" })).json.total).toBe(1);
  });
});
