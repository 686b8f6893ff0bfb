import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey, revokeApiKey } from "@/lib/server/admin";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { listImportPage } from "./import-list";
import { listKeyPage } from "./key-list";

const JOBS = 60;

/** 60 import jobs a minute apart: every fifth failed, every seventh (not failed) running, the rest done. */
async function seedJobs(label: string) {
  const project = await makeTestProject(label);
  const start = Date.UTC(2026, 10, 1);
  const jobs = Array.from({ length: JOBS }, (_, i) => {
    const status = i % 5 === 0 ? ("FAILED" as const) : i % 7 === 0 ? ("RUNNING" as const) : ("DONE" as const);
    return {
      id: randomUUID(),
      projectId: project.id,
      format: "claude-code",
      status,
      byteLength: 1000 + i,
      spansDone: i,
      spansTotal: i,
      outcome:
        status === "DONE"
          ? {
              format: "claude-code",
              spans: i,
              sessions: [{ id: "s" }],
              records: { read: i + 3, used: i, ignored: 2, skipped: 1 },
            }
          : undefined,
      error: status === "FAILED" ? `failed ${i}` : null,
      requester: `person-${i}@example.com`,
      createdAt: new Date(start + i * 60_000),
    };
  });
  await db().importJob.createMany({ data: jobs });
  return { project, jobs };
}

describe("the imports list", () => {
  it("pages a project's jobs newest first with the total, the outcome's record counts, and filters by status", async () => {
    const { project, jobs } = await seedJobs("imports");
    const newest = [...jobs].reverse();
    const first = await listImportPage(project.id, {});
    expect([first.total, first.pages, first.pageSize]).toEqual([JOBS, 3, 25]);
    expect(first.rows.map((r) => r.id)).toEqual(newest.slice(0, 25).map((j) => j.id));
    const done = first.rows.find((r) => r.status === "DONE")!;
    const job = jobs.find((j) => j.id === done.id)!;
    expect(done.records).toEqual({ read: job.spansDone + 3, used: job.spansDone, ignored: 2, skipped: 1 });
    expect(done.sessions).toBe(1);
    expect(first.rows.find((r) => r.status === "FAILED")).toMatchObject({ records: null, sessions: null });
    // The last page (read from the other end) and the oldest first.
    expect((await listImportPage(project.id, { page: "3" })).rows.map((r) => r.id)).toEqual(newest.slice(50).map((j) => j.id));
    expect((await listImportPage(project.id, { sort: "oldest", page: "3" })).rows.map((r) => r.id)).toEqual(
      jobs.slice(50).map((j) => j.id),
    );
    const failed = await listImportPage(project.id, { status: "FAILED" });
    expect(failed.total).toBe(jobs.filter((j) => j.status === "FAILED").length);
    expect(failed.rows.every((r) => r.status === "FAILED" && r.error?.startsWith("failed"))).toBe(true);
    await expect(listImportPage(project.id, { status: "LOST" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fields: [{ path: "status" }],
    });
    await expect(listImportPage(project.id, { page: "0" })).rejects.toMatchObject({ fields: [{ path: "page" }] });
  });

  it("never lists another project's jobs", async () => {
    const a = await seedJobs("imports-a");
    const b = await seedJobs("imports-b");
    const bIds = new Set<string>(b.jobs.map((j) => j.id));
    for (const page of ["1", "2", "3"]) {
      const listed = await listImportPage(a.project.id, { page });
      expect(listed.total).toBe(JOBS);
      expect(listed.rows.some((r) => bIds.has(r.id))).toBe(false);
    }
  });
});

describe("the API keys list", () => {
  it("pages a project's keys with the total, filtered to active or revoked, never another project's", async () => {
    const project = await makeTestProject("keys");
    const other = await makeTestProject("keys-other");
    const keys = [];
    for (let i = 0; i < 30; i++) keys.push(await createApiKey(project.id, `key ${i}`, "OPERATOR", TEST_ACTOR));
    const foreign = await createApiKey(other.id, "foreign", "VIEWER", TEST_ACTOR);
    for (const key of keys.filter((_, i) => i % 3 === 0)) await revokeApiKey(key.id, TEST_ACTOR, project.id);

    const first = await listKeyPage(project.id, {});
    expect([first.total, first.pages, first.rows.length]).toEqual([30, 2, 25]);
    expect(first.rows.map((r) => r.name)).toEqual(keys.slice(0, 25).map((k) => k.name));
    const second = await listKeyPage(project.id, { keysPage: "2" });
    expect(second.rows.map((r) => r.name)).toEqual(keys.slice(25).map((k) => k.name));
    const revoked = await listKeyPage(project.id, { keys: "revoked" });
    expect(revoked.total).toBe(10);
    expect(revoked.rows.every((r) => r.revokedAt !== null)).toBe(true);
    const active = await listKeyPage(project.id, { keys: "active", keysSort: "newest" });
    expect(active.total).toBe(20);
    expect(active.rows[0]!.name).toBe("key 29");
    expect(active.rows.every((r) => r.revokedAt === null)).toBe(true);
    const all = [...first.rows, ...second.rows].map((r) => r.id);
    expect(all).not.toContain(foreign.id);
    expect((await listKeyPage(other.id, {})).rows.map((r) => r.id)).toEqual([foreign.id]);
    await expect(listKeyPage(project.id, { keys: "expired" })).rejects.toMatchObject({ fields: [{ path: "keys" }] });
  });
});
