import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/core/env";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { importTranscriptFile } from "./import-file";

const FIXTURE = path.resolve("lib/importers/fixtures/claude-code-session.jsonl");
const FIXTURE_SESSION = "7d3e9a41-5c2b-4f8e-9a61-0b2c4d6e8f10";

/** The fixture's records as another session's. */
const asSession = (text: string, sessionId: string) => text.replaceAll(FIXTURE_SESSION, sessionId);

/** A Claude Code session of `messages` user messages, each its own span. */
function longSession(sessionId: string, messages: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < messages; i++) {
    const uuid = randomUUID();
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: "external",
        cwd: "/srv/app",
        sessionId,
        version: "1.0.98",
        type: "user",
        message: { role: "user", content: `Message ${i}: please check /etc/app/conf-${i}.yaml` },
        uuid,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
      }),
    );
    parent = uuid;
  }
  return `${lines.join("\n")}\n`;
}

const sessionsOf = (projectId: string) =>
  db().session.findMany({ where: { projectId }, select: { externalId: true, spanCount: true } });

describe("an import is all or nothing", () => {
  it("a file whose second session fails leaves nothing of its first behind", async () => {
    const project = await makeTestProject("import-all-or-nothing");
    const fixture = readFileSync(FIXTURE, "utf8");
    const first = randomUUID();
    const second = randomUUID();
    // The second session is already stored, its seq 0 with other bytes: a CONFLICT.
    const { session } = await upsertSession(project.id, { externalId: second, runtime: "claude-code" });
    await appendSpans(project.id, session.id, [
      { seq: 0, kind: "MESSAGE", occurredAt: new Date(), body: new TextEncoder().encode("other") },
    ]);
    const file = new TextEncoder().encode(asSession(fixture, first) + asSession(fixture, second));

    await expect(importTranscriptFile(project.id, file, { requester: "test" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await sessionsOf(project.id)).toEqual([{ externalId: second, spanCount: 1 }]);
    expect(await db().skippedRecord.count({ where: { session: { projectId: project.id } } })).toBe(0);
  });

  it("a process killed (SIGKILL) in the middle of an import leaves no partial session", async () => {
    const project = await makeTestProject("import-killed");
    const dir = mkdtempSync(path.join(tmpdir(), "custodian-kill-"));
    const file = path.join(dir, "long.jsonl");
    const externalId = randomUUID();
    writeFileSync(file, longSession(externalId, 6_000));
    const child = spawn(process.execPath, ["--import", "tsx", "lib/server/imports/import-child.ts", file, project.id], {
      env: { ...process.env, DATABASE_URL: env().DATABASE_URL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const killedAt = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
        // Batches have landed (inside the import's transaction): kill it there.
        const done = [...out.matchAll(/progress (\d+)/g)].map((m) => Number(m[1]));
        if (done.length > 0 && done.at(-1)! >= 1_000 && !child.killed) {
          child.kill("SIGKILL");
          resolve(done.at(-1)!);
        }
        if (out.includes("done")) reject(new Error("the import finished before it could be killed"));
      });
      child.on("exit", (code, signal) => {
        if (signal !== "SIGKILL") reject(new Error(`the import exited (${code}) before it was killed: ${stderr.slice(-2000)}`));
      });
    });
    await new Promise((resolve) => child.on("close", resolve));
    expect(killedAt).toBeGreaterThanOrEqual(1_000);
    // The server notices the dead connection and rolls its transaction back.
    for (let waited = 0; waited < 10_000; waited += 100) {
      const [row] = await db().$queryRaw<Array<{ n: number }>>`
        select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
      if (row!.n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await sessionsOf(project.id)).toEqual([]);
    expect(await db().span.count({ where: { session: { projectId: project.id } } })).toBe(0);
  }, 120_000);
});
