/**
 * The Claude Code compaction hooks on a real compacted session (marot/spotter, see the fixture's
 * SOURCES.md): PreCompact sees the transcript as it stood when the user typed /compact, SessionStart
 * (source "compact") the whole file with the boundary, the summary and the work after it. The
 * session's grid, read as the dashboard reads it, must show every span the compaction replaced as
 * held with a pointer, and the ledger must name the session's side effects by span id.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as sync } from "@/app/api/v1/hooks/sync/route";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { sessionGrid } from "@/lib/server/provenance";
import { runHook } from "./hook";

const FILE = "lib/importers/fixtures/claude-code/spotter-compacted-ae4a77f8.jsonl.gz";

let listener: RouteListener;

beforeAll(async () => {
  listener = await listenWith(sync);
});

afterAll(() => listener.close());

it("a real /compact: pre-compact holds what the compactor drops, session-start links it and prints the ledger", async () => {
  const bytes = gunzipSync(readFileSync(FILE));
  const lines = bytes.toString("utf8").split("\n");
  const boundary = lines.findIndex((l) => l.includes('"subtype":"compact_boundary"'));
  expect(boundary).toBe(1480);
  const { sessionId } = JSON.parse(lines[boundary]!) as { sessionId: string };

  const project = await makeTestProject("real-compaction");
  const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  const dir = mkdtempSync(join(tmpdir(), "custodian-real-compaction-"));
  // The hook's own limit far above what a hook takes on a loaded machine (at 30 s, a busy run
  // failed here by the clock): what is tested is what it holds and prints.
  const config = { url: listener.url, key, failClosed: true, timeoutMs: 100_000, ledgerLimit: 40, stateDir: join(dir, "state") };
  const transcript = join(dir, "session.jsonl");
  const payload = (event: object) => JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: dir, ...event });

  // PreCompact: the transcript up to the /compact command, as Claude Code had written it.
  writeFileSync(transcript, `${lines.slice(0, boundary).join("\n")}\n`);
  const pre = await runHook(
    "claude-code",
    "pre-compact",
    payload({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "" }),
    config,
  );
  // Fail-closed, and still allowed silently: every span the compactor may drop is held with a pointer.
  expect(pre).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  const session = await db().session.findUniqueOrThrow({
    where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
  });
  const before = await db().span.count({ where: { sessionId: session.id } });
  expect(before).toBeGreaterThan(100);

  // SessionStart after compaction: the whole file.
  writeFileSync(transcript, bytes);
  const start = await runHook(
    "claude-code",
    "session-start",
    payload({ hook_event_name: "SessionStart", source: "compact" }),
    config,
  );
  expect(start.exitCode).toBe(0);
  expect(start.stderr).toBe("");
  const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
    .hookSpecificOutput;
  expect(context.hookEventName).toBe("SessionStart");

  // The compaction is linked: one summary, replacing spans that were all imported before it.
  const links = await db().summaryLink.findMany({ where: { sessionId: session.id } });
  expect(new Set(links.map((l) => l.summarySpanId)).size).toBe(1);
  expect(links.length).toBeGreaterThan(100);
  expect(links.every((l) => l.pointerSha256 !== null)).toBe(true);
  const replaced = await db().span.findMany({ where: { id: { in: links.map((l) => l.replacedSpanId) } } });
  expect(replaced.every((s) => s.transcriptState.startsWith("RECLAIMED") && s.hasPointer)).toBe(true);

  // The grid, as the session's page reads it: no span without a pointer, nothing lost, the summary durable.
  const { grid, summaryStatuses } = await sessionGrid(db(), session.id, DEFAULT_POLICY, new Date());
  for (const cls of ["STRUCTURED", "SIDE_EFFECTING"] as const) {
    expect(grid[cls].NONE, cls).toBe(0);
    expect(grid[cls].LOST, cls).toBe(0);
  }
  expect(grid.SIDE_EFFECTING.DURABLE + grid.SIDE_EFFECTING.EXPIRING).toBeGreaterThan(0);
  expect([...summaryStatuses.values()]).not.toContain("NONE");

  // The ledger names side effects of the compacted part by span id, so the agent can fetch them.
  const compactedSideEffects = replaced.filter((s) => s.class === "SIDE_EFFECTING" && s.kind === "TOOL_CALL");
  expect(compactedSideEffects.length).toBeGreaterThan(0);
  const named = compactedSideEffects.filter((s) => context.additionalContext.includes(`[span ${s.id}]`));
  expect(named.length).toBeGreaterThan(0);
}, 120_000);
