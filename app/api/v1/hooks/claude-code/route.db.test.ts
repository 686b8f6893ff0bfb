/**
 * Claude Code's HTTP hooks against the route through a real listener: each request shaped as Claude
 * Code sends it (the hook input as the JSON body, `Authorization` from the hook's headers), real
 * Claude Code sessions, real Postgres. The capture must end where the process hooks and a whole-file
 * import end.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { importTranscript } from "@/lib/importers";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { head, sessionOf, spansOf } from "@/lib/server/capture/capture.testkit";
import { importTranscriptFile } from "@/lib/server/imports";
import { POST } from "./route";

const FIXTURES = "lib/importers/fixtures/claude-code";
const root = mkdtempSync(join(tmpdir(), "custodian-http-hook-"));
let listener: RouteListener;
let rootsBefore: string | undefined;

beforeAll(async () => {
  rootsBefore = process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS;
  process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS = join(root, "projects");
  listener = await listenWith(POST);
});

afterAll(async () => {
  if (rootsBefore === undefined) delete process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS;
  else process.env.CUSTODIAN_HOOK_TRANSCRIPT_ROOTS = rootsBefore;
  await listener.close();
});

async function setup(label: string, policy?: RetentionPolicy) {
  const project = await makeTestProject(label, policy);
  const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  const dir = join(root, "projects", `-home-dev-${label}`);
  mkdirSync(dir, { recursive: true });
  return { project, key, dir };
}

/** One hook request as Claude Code sends it: POST, the hook input as JSON, the configured headers. */
async function hook(key: string, input: object, query = "") {
  const response = await fetch(`${listener.url}/api/v1/hooks/claude-code${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(input),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

describe("Claude Code HTTP hooks", () => {
  it("Stop and SessionEnd answer at once with an empty 204 and capture the session whole, nothing twice", async () => {
    const { project, key, dir } = await setup("http-stop");
    const bytes = readFileSync(join(FIXTURES, "spotter-subagent-progress.jsonl"));
    const lines = bytes.toString("utf8").split("\n");
    const { externalId } = importTranscript(bytes, "claude-code").sessions[0]!;
    const transcript = join(dir, `${externalId}.jsonl`);
    const common = { session_id: externalId, transcript_path: transcript, cwd: "/home/dev/app", permission_mode: "default" };

    writeFileSync(transcript, head(lines, 30));
    const stop = await hook(key, { ...common, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "" });
    expect(stop).toMatchObject({ status: 204, text: "" }); // empty 2xx: Claude Code goes on
    const session = await sessionOf(project.id, externalId);
    const afterStop = await spansOf(session.id);
    expect(afterStop.length).toBeGreaterThan(0);

    writeFileSync(transcript, bytes);
    expect(await hook(key, { ...common, hook_event_name: "SessionEnd", reason: "prompt_input_exit" })).toMatchObject({
      status: 204,
      text: "",
    });
    const stored = await spansOf(session.id);
    const whole = await makeTestProject("http-stop-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "claude-code", requester: "test" });
    expect(stored).toEqual(await spansOf(full.sessions[0]!.id));

    // The file's cursor is the watcher's: fully read, so nothing is at risk and nothing is read again.
    const cursor = await db().transcriptCursor.findFirstOrThrow({ where: { projectId: project.id } });
    expect([Number(cursor.bytes), Number(cursor.size), cursor.error]).toEqual([bytes.byteLength, bytes.byteLength, null]);
    expect((await hook(key, { ...common, hook_event_name: "SessionEnd", reason: "other" })).status).toBe(204);
    expect(await spansOf(session.id)).toEqual(stored);
  });

  it("SubagentStop captures the subagent's own transcript as its session, with the agent's id and type", async () => {
    const { project, key, dir } = await setup("http-subagent");
    const bytes = readFileSync(join(FIXTURES, "spotter-agent-aac57f5.jsonl"));
    const parent = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
    mkdirSync(join(dir, parent, "subagents"), { recursive: true });
    const agentTranscript = join(dir, parent, "subagents", "agent-aac57f5.jsonl");
    writeFileSync(agentTranscript, bytes);
    const answer = await hook(key, {
      session_id: parent,
      transcript_path: join(dir, `${parent}.jsonl`),
      cwd: "/home/dev/app",
      permission_mode: "default",
      hook_event_name: "SubagentStop",
      stop_hook_active: false,
      agent_id: "aac57f5",
      agent_type: "general-purpose",
      agent_transcript_path: agentTranscript,
      last_assistant_message: "",
    });
    expect(answer.status).toBe(204);
    const stored = await spansOf((await sessionOf(project.id, `${parent}/agent-aac57f5`)).id);
    expect(stored).toHaveLength(importTranscript(bytes, "claude-code").sessions[0]!.spans.length);
    expect(stored.every((s) => s.agentId === "aac57f5" && s.agentType === "general-purpose")).toBe(true);
  });

  it("PostCompact stores the runtime's summary verbatim, linked to the spans the compaction replaced", async () => {
    const { project, key, dir } = await setup("http-post-compact");
    const bytes = gunzipSync(readFileSync(join(FIXTURES, "spotter-compacted-ae4a77f8.jsonl.gz")));
    const lines = bytes.toString("utf8").split("\n");
    const boundary = lines.findIndex((l) => l.includes('"subtype":"compact_boundary"'));
    const summaryLine = lines.findIndex((l, i) => i > boundary && l.includes('"isCompactSummary":true'));
    const parent = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
    const transcript = join(dir, `${parent}.jsonl`);
    const compactSummary = "The agent read the spotter sources and planned the change; nothing was written yet.";
    const common = { session_id: parent, transcript_path: transcript, cwd: "/home/dev/app" };

    writeFileSync(transcript, head(lines, boundary));
    expect((await hook(key, { ...common, hook_event_name: "Stop", stop_hook_active: false })).status).toBe(204);
    writeFileSync(transcript, head(lines, summaryLine + 1));
    const post = { ...common, hook_event_name: "PostCompact", trigger: "manual", compact_summary: compactSummary };
    expect(await hook(key, post)).toMatchObject({ status: 204, text: "" });

    const session = await sessionOf(project.id, parent);
    const summaries = await db().span.findMany({
      where: { sessionId: session.id, kind: "SUMMARY", seq: null },
      select: { id: true, original: { select: { bytes: true } } },
    });
    expect(summaries).toHaveLength(1);
    expect(Buffer.from(summaries[0]!.original!.bytes!).toString("utf8")).toBe(compactSummary);
    const replaced = importTranscript(Buffer.from(head(lines, summaryLine + 1)), "claude-code").sessions[0]!.compactions[0]!
      .replacedSeqs;
    const links = await db().summaryLink.findMany({
      where: { sessionId: session.id, summarySpanId: summaries[0]!.id },
      select: { replaced: { select: { seq: true } } },
    });
    expect(links.map((l) => l.replaced.seq).sort((a, b) => a! - b!)).toEqual([...replaced].sort((a, b) => a - b));
    // Sent again, nothing is stored twice.
    expect((await hook(key, post)).status).toBe(204);
    expect(await db().span.count({ where: { sessionId: session.id, kind: "SUMMARY", seq: null } })).toBe(1);
  }, 120_000);

  it("PreCompact answers with the gate: empty when it allows; a warning, or with ?failClosed=1 a block, when it refuses", async () => {
    const shortLived = {
      ...DEFAULT_POLICY,
      evidenceHorizonDays: 400,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, SIDE_EFFECTING: 7, STRUCTURED: 7 },
    };
    const bytes = readFileSync(join(FIXTURES, "spotter-tool-heavy.jsonl"));
    const sessionId = importTranscript(bytes, "claude-code").sessions[0]!.externalId;
    const input = (dir: string) => ({
      session_id: sessionId,
      transcript_path: join(dir, `${sessionId}.jsonl`),
      cwd: "/home/dev/app",
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });

    const kept = await setup("http-precompact-kept");
    writeFileSync(join(kept.dir, `${sessionId}.jsonl`), bytes);
    expect(await hook(kept.key, input(kept.dir), "?failClosed=1")).toMatchObject({ status: 204, text: "" });
    expect((await spansOf((await sessionOf(kept.project.id, sessionId)).id)).length).toBe(
      importTranscript(bytes, "claude-code").sessions[0]!.spans.length,
    );

    const expiring = await setup("http-precompact-expiring", shortLived);
    writeFileSync(join(expiring.dir, `${sessionId}.jsonl`), bytes);
    const blocked = await hook(expiring.key, input(expiring.dir), "?failClosed=1");
    expect(blocked.status).toBe(200);
    expect(blocked.json).toEqual({
      decision: "block",
      reason: expect.stringMatching(
        /^Custodian blocked compaction: \d+ spans? the compaction may drop ha(s|ve) no durable original/,
      ),
    });
    const warned = await hook(expiring.key, input(expiring.dir));
    expect(warned.status).toBe(200);
    expect(warned.json).toEqual({
      systemMessage: expect.stringMatching(
        /^custodian: \d+ spans? the compaction may drop .* \(the session continues: fail-open\)$/,
      ),
    });
  });

  it("a transcript outside the transcript folders is never read: a warning (fail-open), or a block before compaction when asked", async () => {
    const { project, key } = await setup("http-outside");
    const outside = join(mkdtempSync(join(tmpdir(), "custodian-elsewhere-")), "secrets.jsonl");
    writeFileSync(outside, readFileSync(join(FIXTURES, "spotter-tool-heavy.jsonl")));
    const input = { session_id: "s-outside", transcript_path: outside, cwd: "/", hook_event_name: "Stop" };
    const stop = await hook(key, input);
    expect(stop.status).toBe(200);
    expect(String(stop.json?.systemMessage)).toMatch(
      /^custodian: The transcript .* is not a \.jsonl file under the folders this server reads hook transcripts from \(CUSTODIAN_HOOK_TRANSCRIPT_ROOTS: /,
    );
    const pre = await hook(key, { ...input, hook_event_name: "PreCompact", trigger: "manual" }, "?failClosed=1");
    expect(pre.json).toMatchObject({ decision: "block", reason: expect.stringContaining("CUSTODIAN_HOOK_TRANSCRIPT_ROOTS") });
    const missing = await hook(key, { ...input, transcript_path: join(root, "projects", "gone.jsonl") });
    expect(String(missing.json?.systemMessage)).toContain("This server cannot read the transcript");
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("without a valid key it is a 401 (Claude Code goes on: a non-2xx is a non-blocking error); SessionStart is not served", async () => {
    const { key } = await setup("http-auth");
    expect((await hook("cst_not-a-key", { session_id: "s", hook_event_name: "Stop" })).status).toBe(401);
    const start = await hook(key, { session_id: "s", hook_event_name: "SessionStart", source: "compact" });
    expect(start.status).toBe(422);
  });
});
