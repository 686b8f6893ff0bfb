/**
 * Every session captured, compacting or not: Stop, SessionEnd and SubagentStop (Claude Code's and
 * Codex's) import the rest of a transcript; PostCompact stores the runtime's own summary verbatim and
 * links it. Real Claude Code sessions (marot/spotter) and a real Codex rollout (see the fixtures'
 * SOURCES.md) through the hooks' real path: the runtime's payload on stdin, the request to a
 * listener handing it to the route handler, real Postgres.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sync } from "@/app/api/v1/hooks/sync/route";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { head, sessionOf, spansOf } from "@/lib/server/capture/capture.testkit";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { importTranscriptFile } from "@/lib/server/imports";
import { runHook } from "./hook";
import type { ConnectionConfig } from "./hook-config";

const FIXTURES = "lib/importers/fixtures/claude-code";
const PARENT = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";

let listener: RouteListener;

beforeAll(async () => {
  listener = await listenWith(sync);
});

afterAll(() => listener.close());

async function setup(label: string) {
  const project = await makeTestProject(label);
  const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  const dir = mkdtempSync(join(tmpdir(), "custodian-capture-"));
  const config: ConnectionConfig = {
    url: listener.url,
    key,
    failClosed: false,
    // The hook's own limit, far above what a hook takes even on a loaded machine: these tests are
    // of what it stores, and at 30 s a busy run failed them by the clock.
    timeoutMs: 100_000,
    ledgerLimit: 40,
    stateDir: join(dir, "state"),
  };
  return { project, config, dir };
}

describe("a session that never compacts", () => {
  it("Stop imports each turn's records, SessionEnd the rest: the session ends whole, its subagent spans attributed", async () => {
    const { project, config, dir } = await setup("capture-end");
    const bytes = readFileSync(join(FIXTURES, "spotter-subagent-progress.jsonl"));
    const lines = bytes.toString("utf8").split("\n");
    const { externalId } = importTranscript(bytes, "claude-code").sessions[0]!;
    const transcript = join(dir, "session.jsonl");
    const payload = (event: object) =>
      JSON.stringify({ session_id: externalId, transcript_path: transcript, cwd: dir, ...event });

    writeFileSync(transcript, head(lines, 30));
    const stop = await runHook(
      "claude-code",
      "stop",
      payload({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "" }),
      config,
    );
    expect(stop).toEqual({ stdout: "", stderr: "", exitCode: 0 }); // nothing printed: the runtime stops as it would have
    const session = await sessionOf(project.id, externalId);
    const afterStop = await spansOf(session.id);
    expect(afterStop.length).toBeGreaterThan(0);

    writeFileSync(transcript, bytes);
    const end = await runHook("claude-code", "session-end", payload({ hook_event_name: "SessionEnd", reason: "exit" }), config);
    expect(end).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const stored = await spansOf(session.id);
    expect(stored.length).toBeGreaterThan(afterStop.length);

    // Exactly what one import of the whole file holds, subagent spans with their agent's id and type.
    const whole = await makeTestProject("capture-end-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "claude-code", requester: "test" });
    expect(stored).toEqual(await spansOf(full.sessions[0]!.id));
    const subagent = stored.filter((s) => s.agentId !== null);
    expect(subagent.length).toBeGreaterThan(0);
    expect(new Set(subagent.map((s) => `${s.agentId}:${s.agentType}`))).toEqual(new Set(["afb92ff:Plan"]));
    expect(await db().compaction.count({ where: { sessionId: session.id } })).toBe(0);

    // Another SessionEnd (the runtime retried, or Stop ran after it) sends nothing twice.
    expect((await runHook("claude-code", "session-end", payload({ hook_event_name: "SessionEnd" }), config)).exitCode).toBe(0);
    expect(await spansOf(session.id)).toEqual(stored);
  });

  it("SubagentStop imports the subagent's own transcript, each span with the agent's id and the hook's agent type", async () => {
    const { project, config, dir } = await setup("capture-subagent");
    const bytes = readFileSync(join(FIXTURES, "spotter-agent-aac57f5.jsonl"));
    const lines = bytes.toString("utf8").split("\n");
    const agentTranscript = join(dir, "agent-aac57f5.jsonl");
    const payload = JSON.stringify({
      session_id: PARENT,
      transcript_path: join(dir, `${PARENT}.jsonl`), // the parent's: not read by this hook
      cwd: dir,
      hook_event_name: "SubagentStop",
      stop_hook_active: false,
      agent_id: "aac57f5",
      agent_type: "general-purpose",
      agent_transcript_path: agentTranscript,
      last_assistant_message: "",
    });

    writeFileSync(agentTranscript, head(lines, 12));
    expect(await runHook("claude-code", "subagent-stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    writeFileSync(agentTranscript, bytes);
    expect(await runHook("claude-code", "subagent-stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });

    // The session a file import of the subagent's file makes: the parent's id, then the agent's.
    const session = await sessionOf(project.id, `${PARENT}/agent-aac57f5`);
    const stored = await spansOf(session.id);
    expect(stored.length).toBe(importTranscript(bytes, "claude-code").sessions[0]!.spans.length);
    expect(stored.every((s) => s.agentId === "aac57f5" && s.agentType === "general-purpose")).toBe(true);
    const whole = await makeTestProject("capture-subagent-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "claude-code", requester: "test" });
    const strip = (spans: Awaited<ReturnType<typeof spansOf>>) => spans.map(({ seq, sha256, kind }) => ({ seq, sha256, kind }));
    expect(strip(stored)).toEqual(strip(await spansOf(full.sessions[0]!.id)));
  });
});

describe("Codex SubagentStop", () => {
  it("imports a thread-spawned subagent's own rollout as its thread's session, each span with the agent's id and type", async () => {
    const { project, config, dir } = await setup("capture-codex-subagent");
    // A real rollout standing for the subagent's: Codex gives the hook the subagent's own rollout
    // (`agent_transcript_path`) and its thread id (`agent_id`), the id its session_meta records.
    const bytes = readFileSync("lib/importers/fixtures/codex/codemie-tui-0.125.jsonl");
    const lines = bytes.toString("utf8").split("\n");
    const { externalId: threadId, spans } = importTranscript(bytes, "codex").sessions[0]!;
    const rollout = join(dir, `rollout-${threadId}.jsonl`);
    // As codex-rs/hooks/schema/generated/subagent-stop.command.input.schema.json has it, every field required.
    const payload = JSON.stringify({
      session_id: "019e0000-0000-7000-8000-00000000aaaa",
      turn_id: "turn-7",
      transcript_path: join(dir, "rollout-parent.jsonl"), // the parent's: not read by this hook
      cwd: dir,
      hook_event_name: "SubagentStop",
      model: "gpt-5.5",
      permission_mode: "default",
      stop_hook_active: false,
      agent_id: threadId,
      agent_type: "explorer",
      agent_transcript_path: rollout,
      last_assistant_message: "done",
    });

    writeFileSync(rollout, head(lines, 120));
    expect(await runHook("codex", "subagent-stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    writeFileSync(rollout, bytes);
    expect(await runHook("codex", "subagent-stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });

    const session = await sessionOf(project.id, threadId);
    const stored = await spansOf(session.id);
    expect(stored.length).toBe(spans.length);
    expect(stored.every((s) => s.agentId === threadId && s.agentType === "explorer")).toBe(true);
    const whole = await makeTestProject("capture-codex-subagent-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "codex", requester: "test" });
    const strip = (spans: Awaited<ReturnType<typeof spansOf>>) => spans.map(({ seq, sha256, kind }) => ({ seq, sha256, kind }));
    expect(strip(stored)).toEqual(strip(await spansOf(full.sessions[0]!.id)));
    expect(await db().session.count({ where: { projectId: project.id } })).toBe(1);
  });
});

describe("PostCompact", () => {
  it("stores the runtime's summary verbatim as a summary span, linked to the spans the compaction replaced, once", async () => {
    const { project, config, dir } = await setup("capture-post-compact");
    const bytes = gunzipSync(readFileSync(join(FIXTURES, "spotter-compacted-ae4a77f8.jsonl.gz")));
    const lines = bytes.toString("utf8").split("\n");
    const boundary = lines.findIndex((l) => l.includes('"subtype":"compact_boundary"'));
    const summaryLine = lines.findIndex((l, i) => i > boundary && l.includes('"isCompactSummary":true'));
    expect(summaryLine).toBeGreaterThan(boundary);
    // The model's summary is the summary record's text without the runtime's opening sentence.
    const recorded = (JSON.parse(lines[summaryLine]!) as { message: { content: string } }).message.content;
    const opening = "The summary below covers the earlier portion of the conversation.\n\n";
    const compactSummary = recorded.slice(recorded.indexOf(opening) + opening.length);
    expect(compactSummary.length).toBeGreaterThan(1000);
    const transcript = join(dir, "session.jsonl");
    const payload = (event: object) => JSON.stringify({ session_id: PARENT, transcript_path: transcript, cwd: dir, ...event });

    writeFileSync(transcript, head(lines, boundary));
    expect((await runHook("claude-code", "stop", payload({ hook_event_name: "Stop" }), config)).exitCode).toBe(0);
    // After the compaction Claude Code has written the boundary and its summary record.
    writeFileSync(transcript, head(lines, summaryLine + 1));
    const post = payload({ hook_event_name: "PostCompact", trigger: "manual", compact_summary: compactSummary });
    expect(await runHook("claude-code", "post-compact", post, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });

    const session = await sessionOf(project.id, PARENT);
    const summaries = await db().span.findMany({
      where: { sessionId: session.id, kind: "SUMMARY", seq: null },
      select: { id: true, original: { select: { bytes: true } }, _count: { select: { replaces: true } } },
    });
    expect(summaries).toHaveLength(1);
    expect(Buffer.from(summaries[0]!.original!.bytes!).equals(Buffer.from(compactSummary, "utf8"))).toBe(true);

    // Linked to exactly the spans the transcript's compaction replaced, each with a pointer.
    const parsed = importTranscript(Buffer.from(head(lines, summaryLine + 1)), "claude-code").sessions[0]!;
    const replacedSeqs = parsed.compactions[0]!.replacedSeqs;
    const links = await db().summaryLink.findMany({
      where: { sessionId: session.id, summarySpanId: summaries[0]!.id },
      select: { pointerSha256: true, replaced: { select: { seq: true, transcriptState: true, hasPointer: true } } },
    });
    expect(links.map((l) => l.replaced.seq).sort((a, b) => a! - b!)).toEqual([...replacedSeqs].sort((a, b) => a - b));
    expect(links.every((l) => l.pointerSha256 !== null && l.replaced.hasPointer)).toBe(true);
    expect(links.every((l) => l.replaced.transcriptState.startsWith("RECLAIMED"))).toBe(true);
    const compactions = await db().compaction.findMany({ where: { sessionId: session.id } });
    expect(compactions.map((c) => [c.summarySpanId, c.asked])).toEqual([[summaries[0]!.id, false]]);

    // The transcript's own summary record is kept as a span, and the compaction is not linked twice.
    expect(await db().span.count({ where: { sessionId: session.id, kind: "SUMMARY", seq: { not: null } } })).toBe(1);
    expect(await runHook("claude-code", "post-compact", post, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    writeFileSync(transcript, bytes);
    const start = payload({ hook_event_name: "SessionStart", source: "compact" });
    expect((await runHook("claude-code", "session-start", start, config)).exitCode).toBe(0);
    expect(await db().span.count({ where: { sessionId: session.id, kind: "SUMMARY", seq: null } })).toBe(1);
    expect(await db().compaction.count({ where: { sessionId: session.id } })).toBe(1);
    expect(await db().summaryLink.count({ where: { sessionId: session.id } })).toBe(replacedSeqs.length);
  }, 120_000);
});

describe("codex Stop", () => {
  it("imports the rollout to its end at every stop: the session is whole without a compaction", async () => {
    const { project, config, dir } = await setup("capture-codex-stop");
    const bytes = readFileSync("lib/importers/fixtures/codex/real-exec-0.135.jsonl");
    const lines = bytes.toString("utf8").split("\n");
    const { externalId } = importTranscript(bytes, "codex").sessions[0]!;
    const rollout = join(dir, "rollout.jsonl");
    // Codex's Stop input (codex-rs/hooks/schema/generated/stop.command.input.schema.json).
    const payload = JSON.stringify({
      session_id: externalId,
      transcript_path: rollout,
      cwd: dir,
      hook_event_name: "Stop",
      model: "gpt-5",
      permission_mode: "default",
      turn_id: "t",
      stop_hook_active: false,
      last_assistant_message: null,
    });
    writeFileSync(rollout, head(lines, Math.floor(lines.length / 2)));
    expect(await runHook("codex", "stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    writeFileSync(rollout, bytes);
    expect(await runHook("codex", "stop", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const session = await sessionOf(project.id, externalId);
    const whole = await makeTestProject("capture-codex-stop-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "codex", requester: "test" });
    expect(await spansOf(session.id)).toEqual(await spansOf(full.sessions[0]!.id));
  });
});
