import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listImportPage } from "@/lib/server/dashboard";
import { acceptImport } from "./accept";

const FIXTURES = path.resolve("lib/importers/fixtures");
const LIMITS = { maxBytes: 10_000_000, syncBytes: 5_000_000 };
const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
const send = (projectId: string, bytes: Uint8Array) =>
  acceptImport(projectId, streamOf(bytes), bytes.byteLength, LIMITS, { requester: "user:op@example.com" });

describe("a file imported within its request", () => {
  it("is listed among the project's imports with its outcome, its record accounting and its sessions", async () => {
    const project = await makeTestProject("recorded-import");
    const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, "aider/hand-written-edge-cases.aider.chat.history.md")));
    const accepted = await send(project.id, bytes);
    if (accepted.kind !== "imported") throw new Error(`expected an import within the request, got ${accepted.kind}`);
    expect(accepted.outcome.format).toBe("aider");

    const list = await listImportPage(project.id, {});
    expect(list.running).toBe(false);
    expect(list.rows).toHaveLength(1);
    const [row] = list.rows;
    expect(row).toMatchObject({ id: accepted.importId, status: "DONE", format: "aider", byteLength: bytes.byteLength });
    expect(row!.requester).toBe("user:op@example.com");
    const records = row!.records!;
    expect(records.read).toBeGreaterThan(0);
    expect(records.read).toBe(records.used + records.ignored + records.skipped);
    expect(records).toMatchObject({
      read: accepted.outcome.records.read,
      used: accepted.outcome.records.used,
      skipped: accepted.outcome.records.skipped,
    });
    expect(row!.sessions).toBe(accepted.outcome.sessions.length);
    expect(row!.sessionLinks).toEqual(accepted.outcome.sessions.slice(0, 5).map((s) => ({ id: s.id, externalId: s.externalId })));
    const stored = await db().session.findMany({ where: { projectId: project.id }, select: { id: true } });
    expect(stored.map((s) => s.id).sort()).toEqual(row!.sessionLinks.map((l) => l.id).sort());
  });

  it("refused as unsupported: the caller gets the error naming the formats, and the list shows it failed", async () => {
    const project = await makeTestProject("recorded-refusal");
    const bytes = new TextEncoder().encode("just some notes, not a transcript\n");
    await expect(send(project.id, bytes)).rejects.toMatchObject({ code: "UNSUPPORTED_FORMAT", status: 415 });
    const [row] = (await listImportPage(project.id, {})).rows;
    expect(row).toMatchObject({ status: "FAILED", records: null, sessions: null, sessionLinks: [] });
    expect(row!.error).toMatch(/^Not a supported transcript: .*Supported formats: claude-code, codex/);
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(0);
  });
});
