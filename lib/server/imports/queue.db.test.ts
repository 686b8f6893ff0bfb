import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { MAX_RUNNING_IMPORTS, queuePosition, startImportJob } from "./jobs";
import { receiveFile } from "./spool";

const fixture = readFileSync(path.resolve("lib/importers/fixtures/claude-code-session.jsonl"), "utf8");

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

describe("import jobs", () => {
  it(`run at most ${MAX_RUNNING_IMPORTS} at once; the others wait in order, with their position`, async () => {
    const project = await makeTestProject("import-queue");
    const jobs = [];
    for (let i = 0; i < MAX_RUNNING_IMPORTS + 2; i++) {
      const bytes = new TextEncoder().encode(fixture.replaceAll("7d3e9a41-5c2b-4f8e-9a61-0b2c4d6e8f10", `queued-${i}`));
      jobs.push(await startImportJob(project.id, bytes, "claude-code", "test"));
    }
    expect(jobs.map((j) => queuePosition(j.id))).toEqual([...Array.from({ length: MAX_RUNNING_IMPORTS }, () => null), 1, 2]);
    for (let waited = 0; waited < 60_000; waited += 100) {
      const rows = await db().importJob.findMany({ where: { projectId: project.id } });
      if (rows.every((r) => r.status !== "RUNNING")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await db().importJob.findMany({ where: { projectId: project.id } });
    expect(rows.map((r) => r.status)).toEqual(jobs.map(() => "DONE"));
    expect(jobs.map((j) => queuePosition(j.id))).toEqual(jobs.map(() => null));
  }, 90_000);

  it("a body is read once: into memory while small, to a temporary file past that, refused past the limit", async () => {
    const chunk = new Uint8Array(1000).fill(65);
    const small = await receiveFile(streamOf([chunk, chunk]), undefined, 10_000, 5_000);
    expect(small).toMatchObject({ kind: "memory" });
    expect(small.kind === "memory" && small.bytes.byteLength).toBe(2_000);

    const large = await receiveFile(streamOf(Array.from({ length: 8 }, () => chunk)), undefined, 10_000, 5_000);
    expect(large).toMatchObject({ kind: "spooled", byteLength: 8_000 });
    if (large.kind === "spooled") expect(readFileSync(large.file).byteLength).toBe(8_000);

    await expect(receiveFile(streamOf(Array.from({ length: 12 }, () => chunk)), undefined, 10_000, 5_000)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
    });
    await expect(receiveFile(streamOf([chunk]), 20_000, 10_000, 5_000)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(large.kind === "spooled" && existsSync(large.file)).toBe(true);
  });

  it("imports a spooled upload from its file, a chunk at a time, then removes the file", async () => {
    const project = await makeTestProject("import-spooled");
    const bytes = readFileSync(path.resolve("lib/importers/fixtures/codex/codemie-tui-0.125.jsonl"));
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) =>
      bytes.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const received = await receiveFile(streamOf(chunks), undefined, 10_000_000, 100_000);
    if (received.kind !== "spooled") throw new Error("expected the upload to be spooled");
    const job = await startImportJob(project.id, received, undefined, "test");
    let row = await db().importJob.findUniqueOrThrow({ where: { id: job.id } });
    for (let waited = 0; waited < 60_000 && row.status === "RUNNING"; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      row = await db().importJob.findUniqueOrThrow({ where: { id: job.id } });
    }
    expect(row.status).toBe("DONE");
    const whole = importTranscript(bytes);
    expect(await db().span.count({ where: { session: { projectId: project.id } } })).toBe(whole.sessions[0]!.spans.length);
    // The job is DONE once its spans are written; the file goes right after, in the job's own cleanup.
    for (let waited = 0; waited < 10_000 && existsSync(received.file); waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(received.file)).toBe(false);
  }, 90_000);
});
