import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { POST as importRoute } from "@/app/api/v1/imports/route";
import { GET as importJobRoute } from "@/app/api/v1/imports/[id]/route";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { QUEUE_FULL_RETRY_SECONDS, reserveImportSlot } from "./jobs";

const VARIABLES = [
  "CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT",
  "CUSTODIAN_IMPORT_QUEUE_LIMIT",
  "CUSTODIAN_SYNC_IMPORT_BYTES",
  "TMPDIR",
] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const file = readFileSync(path.resolve("lib/importers/fixtures/codex/rollout-sample.jsonl"));
const spooledFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith("custodian-import-")).length;
/**
 * Uploads spool into the temporary folder (os.tmpdir(), read from TMPDIR at each upload): a folder
 * of the test's own, so files other test files spool meanwhile are not counted.
 */
const ownSpool = () => {
  process.env.TMPDIR = mkdtempSync(path.join(tmpdir(), "queue-limit-"));
};

async function post(key: string, body: Buffer, length = true) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (length) headers["content-length"] = String(body.byteLength);
  return importRoute(
    new Request("http://t/api/v1/imports?format=codex", { method: "POST", headers, body: new Uint8Array(body) }),
    {
      params: Promise.resolve({}),
    },
  );
}

describe("the import queue's limits", () => {
  it("per project and in all: past either, a reservation is refused with IMPORT_QUEUE_FULL and Retry-After", () => {
    process.env.CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT = "2";
    process.env.CUSTODIAN_IMPORT_QUEUE_LIMIT = "3";
    const held = [reserveImportSlot("project-a"), reserveImportSlot("project-a")];
    let refused: unknown;
    try {
      reserveImportSlot("project-a");
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: "IMPORT_QUEUE_FULL",
      status: 429,
      options: { headers: { "Retry-After": String(QUEUE_FULL_RETRY_SECONDS) } },
    });
    held.push(reserveImportSlot("project-b"));
    expect(() => reserveImportSlot("project-c")).toThrow(/this server's 3 waiting imports/);
    // Given back (twice changes nothing), the place is free again.
    held[0]!.release();
    held[0]!.release();
    held.push(reserveImportSlot("project-c"));
    expect(() => reserveImportSlot("project-d")).toThrow(/queue is full/);
    for (const slot of held) slot.release();
  });

  it("a full queue refuses a background import with 429 before its file is written; small imports and accepted jobs go on", async () => {
    const project = await makeTestProject("import-queue-full");
    const key = (await createApiKey(project.id, "importer", "OPERATOR", TEST_ACTOR)).key;
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(file.byteLength - 1);
    process.env.CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT = "1";
    ownSpool();
    // The project's one place is taken (an upload still arriving holds it).
    const arriving = reserveImportSlot(project.id);
    const before = spooledFiles();
    for (const withLength of [true, false]) {
      const refused = await post(key, file, withLength);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(QUEUE_FULL_RETRY_SECONDS));
      const error = (await refused.json()).error;
      expect(error.code).toBe("IMPORT_QUEUE_FULL");
      expect(error.message).toMatch(/import queue is full.*try again later/);
    }
    expect(spooledFiles()).toBe(before);
    // A file small enough to import in the request needs no place in the queue.
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(file.byteLength);
    expect((await post(key, file)).status).toBe(200);
    process.env.CUSTODIAN_SYNC_IMPORT_BYTES = String(file.byteLength - 1);
    // The place given back, the same upload is accepted and its job finishes.
    arriving.release();
    const accepted = await post(key, file);
    expect(accepted.status).toBe(202);
    const { job } = (await accepted.json()) as { job: { id: string } };
    let status = "QUEUED";
    for (let i = 0; i < 600 && status !== "DONE" && status !== "FAILED"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const poll = await importJobRoute(
        new Request(`http://t/api/v1/imports/${job.id}`, { headers: { authorization: `Bearer ${key}` } }),
        {
          params: Promise.resolve({ id: job.id }),
        },
      );
      status = ((await poll.json()) as { status: string }).status;
    }
    expect(status).toBe("DONE");
    // Its place is free again once it ran.
    reserveImportSlot(project.id).release();
  }, 90_000);
});
