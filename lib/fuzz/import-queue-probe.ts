/**
 * The import queue when full: background imports of every shape (with and without a declared
 * length, from each key that may import) are refused with 429 IMPORT_QUEUE_FULL and Retry-After,
 * write nothing to disk, and the queue takes imports again once a place is free. Run by the fuzz
 * suite after its hostile requests.
 */
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { reserveImportSlot } from "@/lib/server/imports";
import { callRoute } from "./call";
import type { FuzzFixture } from "./fixture";
import type { Rng } from "./hostile";
import type { FuzzRoute } from "./routes";

const VARIABLES = ["CUSTODIAN_IMPORT_QUEUE_LIMIT", "CUSTODIAN_SYNC_IMPORT_BYTES"] as const;
const spooled = () => readdirSync(tmpdir()).filter((name) => name.startsWith("custodian-import-")).length;

export async function probeFullImportQueue(
  routes: FuzzRoute[],
  fixture: FuzzFixture,
  rng: Rng,
  requests = 20,
): Promise<{ requests: number; findings: string[]; serverErrors: number }> {
  const handler = routes.find((r) => r.pattern === "/api/v1/imports")?.handlers.POST;
  if (!handler) throw new Error("no POST /api/v1/imports among the routes");
  const saved = VARIABLES.map((name) => process.env[name]);
  const findings: string[] = [];
  let serverErrors = 0;
  // Every import goes to the background, and the one place in the queue is taken.
  process.env.CUSTODIAN_IMPORT_QUEUE_LIMIT = "1";
  process.env.CUSTODIAN_SYNC_IMPORT_BYTES = "1";
  const holder = reserveImportSlot("fuzz-queue-holder");
  const before = spooled();
  try {
    for (let i = 0; i < requests; i++) {
      const body = rng.pick(fixture.transcripts);
      const headers: Record<string, string> = {};
      if (rng.chance(0.5)) headers["content-length"] = String(body.byteLength);
      const answer = await callRoute(handler, {
        key: rng.pick([fixture.keys.admin, fixture.keys.operator]),
        path: "/api/v1/imports",
        headers,
        raw: new Uint8Array(body),
      });
      if (answer.status >= 500) serverErrors++;
      if (answer.status !== 429 || answer.json?.error?.code !== "IMPORT_QUEUE_FULL" || !answer.headers.get("retry-after"))
        findings.push(`an import into a full queue answered ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    if (spooled() !== before) findings.push(`refused imports left ${spooled() - before} temporary files`);
  } finally {
    holder.release();
    VARIABLES.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  }
  return { requests, findings, serverErrors };
}
