import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { authenticate } from "./auth";
import { unknownKeyLimit } from "./rate-limit";
import { CLIENT_ADDRESS_HEADER } from "@/lib/core/client-address";

function request(key: string, address: string) {
  return new Request("http://custodian.test/api/v1/sessions", {
    headers: { authorization: `Bearer ${key}`, [CLIENT_ADDRESS_HEADER]: address },
  });
}

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; retryAfter?: string }> {
  try {
    await promise;
    return { status: 200 };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, retryAfter: error.options.headers?.["Retry-After"] };
  }
}

describe("unknown API keys", () => {
  it("are throttled per address: 401 up to the limit, then 429 with Retry-After; other addresses and valid keys are not", async () => {
    const project = await makeTestProject("unknown-keys");
    const valid = (await createApiKey(project.id, "runtime", "OPERATOR", TEST_ACTOR)).key;
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const guess = () => `cust_${randomBytes(32).toString("base64url")}`;

    for (let i = 0; i < unknownKeyLimit().limit; i++)
      expect((await statusOf(authenticate(request(guess(), address)))).status).toBe(401);
    const limited = await statusOf(authenticate(request(guess(), address)));
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(unknownKeyLimit().windowSeconds);

    // The count is in Postgres, for every server process to see.
    const [row] = await db().$queryRaw<
      Array<{ hits: number }>
    >`select hits from throttle where key like 'api-key:address:%' order by hits desc limit 1`;
    expect(row!.hits).toBeGreaterThan(unknownKeyLimit().limit);

    expect((await statusOf(authenticate(request(guess(), "203.0.113.9")))).status).toBe(401);
    expect((await authenticate(request(valid, address))).projectId).toBe(project.id);
  });

  it("follow CUSTODIAN_UNKNOWN_KEY_LIMIT and _WINDOW_SECONDS", async () => {
    const saved = [process.env.CUSTODIAN_UNKNOWN_KEY_LIMIT, process.env.CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS] as const;
    process.env.CUSTODIAN_UNKNOWN_KEY_LIMIT = "2";
    process.env.CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS = "3600";
    try {
      const address = `198.51.101.${Math.floor(Math.random() * 250) + 1}`;
      const guess = () => `cust_${randomBytes(32).toString("base64url")}`;
      for (let i = 0; i < 2; i++) expect((await statusOf(authenticate(request(guess(), address)))).status).toBe(401);
      const limited = await statusOf(authenticate(request(guess(), address)));
      expect(limited.status).toBe(429);
      expect(Number(limited.retryAfter)).toBeGreaterThan(60);
      expect(Number(limited.retryAfter)).toBeLessThanOrEqual(3600);
    } finally {
      for (const [name, value] of [
        ["CUSTODIAN_UNKNOWN_KEY_LIMIT", saved[0]],
        ["CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS", saved[1]],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe("a known API key", () => {
  it("names its project, role and prefix; notes its use at most once a minute; once revoked it is refused", async () => {
    const project = await makeTestProject("known-key");
    const created = await createApiKey(project.id, "runtime", "VIEWER", TEST_ACTOR);
    const address = "192.0.2.77";
    const caller = await authenticate(request(created.key, address));
    expect(caller).toEqual({
      projectId: project.id,
      keyId: created.id,
      role: "VIEWER",
      label: `api-key:${created.prefix}`,
    });
    const lastUsed = async () => (await db().apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt;
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(60_000);

    // Within the minute, not written again; past it (the column moved back), written anew.
    await authenticate(request(created.key, address));
    expect(await lastUsed()).toEqual(first);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    await db().apiKey.update({ where: { id: created.id }, data: { lastUsedAt: longAgo } });
    await authenticate(request(created.key, address));
    expect((await lastUsed())!.getTime()).toBeGreaterThan(longAgo.getTime() + 60_000);

    await db().apiKey.update({ where: { id: created.id }, data: { revokedAt: new Date() } });
    expect((await statusOf(authenticate(request(created.key, address)))).status).toBe(401);
  });
});
