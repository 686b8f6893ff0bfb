/**
 * A compaction hook over a transcript with large records: spans near the body cap go to the server
 * a few to a request (the server's request limit is 32 MiB), and a record over the cap is sent as a
 * skipped record, so the session cannot answer NO over it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as sync } from "@/app/api/v1/hooks/sync/route";
import { MAX_SPAN_BODY_BYTES, OVER_LIMIT } from "@/lib/core/limits";
import { db } from "@/lib/db/client";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { runHook } from "./hook";

const SESSION = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const LARGE = 7 * 1024 * 1024;
let listener: RouteListener;

beforeAll(async () => {
  listener = await listenWith(sync);
});
afterAll(() => listener.close());

/** A user record whose text is `size` bytes of `fill`. */
const record = (uuid: string, size: number, fill: string) =>
  `{"type":"user","sessionId":"${SESSION}","uuid":"${uuid}","timestamp":"2099-01-01T00:00:00.000Z","message":{"role":"user","content":"${fill.repeat(size)}"}}\n`;

it("pre-compact sends four 7 MiB spans in requests the server accepts, and a record over the cap as skipped", async () => {
  const project = await makeTestProject("hook-large");
  const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  const dir = mkdtempSync(join(tmpdir(), "custodian-hook-large-"));
  const real = readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl", "utf8");
  const overLine = real.split("\n").length - 1 + 5;
  const transcript = join(dir, "session.jsonl");
  writeFileSync(
    transcript,
    real +
      ["a", "b", "c", "d"].map((fill) => record(`large-${fill}`, LARGE, fill)).join("") +
      record("over", MAX_SPAN_BODY_BYTES + 1, "e"),
  );
  const payload = JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: "PreCompact" });
  const config = { url: listener.url, key, failClosed: true, timeoutMs: 120_000, ledgerLimit: 40, stateDir: join(dir, "state") };
  const answer = await runHook("claude-code", "pre-compact", payload, config);
  expect(answer.stderr).toBe("");
  expect(answer.exitCode).toBe(0);

  const session = await db().session.findUniqueOrThrow({
    where: { projectId_externalId: { projectId: project.id, externalId: SESSION } },
  });
  const large = await db().span.findMany({ where: { sessionId: session.id, byteLength: { gte: LARGE } } });
  expect(large.map((s) => s.byteLength)).toEqual([LARGE, LARGE, LARGE, LARGE]);
  const skipped = await db().skippedRecord.findMany({ where: { sessionId: session.id } });
  expect(skipped).toEqual([expect.objectContaining({ line: overLine, reason: expect.stringMatching(`^${OVER_LIMIT}`) })]);
}, 300_000);
