/**
 * The compaction hooks driven with the runtimes' own payload shapes against a local server (a
 * listener handing each request to the route handler), on real transcripts where the fixtures
 * have them: Claude Code's and Codex's real sessions for the incremental import before
 * compaction; the hand-written samples that hold a compaction record for the link after it.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as sync } from "@/app/api/v1/hooks/sync/route";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { listenWith, type RouteListener } from "@/lib/fuzz/listen";
import { importTranscriptFile } from "@/lib/server/imports";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { runHook } from "./hook";
import type { ConnectionConfig } from "./hook-config";
import { installHooks } from "./hook-install";

let listener: RouteListener;
let url: string;
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  listener = await listenWith(sync);
  url = listener.url;
  silent = createServer(() => undefined); // accepts, never answers
  silentUrl = await new Promise((resolve) =>
    silent.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`)),
  );
});

afterAll(async () => {
  silent.closeAllConnections();
  await listener.close();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const fixture = (name: string) => readFileSync(join("lib/importers/fixtures", name));

async function setup(label: string, overrides: Partial<ConnectionConfig> = {}, policy?: RetentionPolicy) {
  const project = await makeTestProject(label, policy);
  const key = (await createApiKey(project.id, "hooks", "OPERATOR", { type: "SYSTEM", label: "test" })).key;
  const dir = mkdtempSync(join(tmpdir(), "custodian-hook-"));
  const config: ConnectionConfig = {
    url,
    key,
    failClosed: false,
    timeoutMs: 10_000,
    ledgerLimit: 40,
    stateDir: join(dir, "state"),
    ...overrides,
  };
  return { project, config, dir };
}

/** The transcript cut after `lines` complete lines, as the runtime had written it at that moment. */
function head(bytes: Buffer, lines: number): Buffer {
  let at = 0;
  for (let i = 0; i < lines; i++) at = bytes.indexOf(0x0a, at) + 1;
  return bytes.subarray(0, at);
}

const storedSpans = (sessionId: string) =>
  db().span.findMany({
    where: { sessionId, seq: { not: null } },
    orderBy: { seq: "asc" },
    select: { seq: true, sha256: true, kind: true },
  });

describe("claude-code hooks", () => {
  it("pre-compact imports only what is new, allows silently, and ends with what a full import holds", async () => {
    const { project, config, dir } = await setup("hook-cc");
    const bytes = fixture("claude-code/spotter-tool-heavy.jsonl");
    const transcript = join(dir, "session.jsonl");
    const sessionId = importTranscript(bytes, "claude-code").sessions[0]!.externalId;
    const payload = JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
      trigger: "auto",
      custom_instructions: "",
    });

    writeFileSync(transcript, head(bytes, 20));
    const first = await runHook("claude-code", "pre-compact", payload, config);
    expect(first).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
    });
    const afterFirst = await storedSpans(session.id);
    expect(afterFirst.length).toBeGreaterThan(0);

    appendFileSync(transcript, bytes.subarray(head(bytes, 20).byteLength));
    const second = await runHook("claude-code", "pre-compact", payload, config);
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe(""); // whatever a PreCompact hook prints goes to the summarizer
    const afterSecond = await storedSpans(session.id);
    expect(afterSecond.length).toBeGreaterThan(afterFirst.length);

    // The same file imported whole elsewhere holds exactly these spans.
    const whole = await makeTestProject("hook-cc-whole");
    const full = await importTranscriptFile(whole.id, bytes, { format: "claude-code", requester: "test" });
    expect(afterSecond).toEqual(await storedSpans(full.sessions[0]!.id));

    // Nothing new: the cursor says so, and nothing is sent twice.
    const cursorFiles = readFileSync(join(config.stateDir, readdirSync(config.stateDir)[0]!), "utf8");
    expect(JSON.parse(cursorFiles).nextSeq).toBe(afterSecond.length);
    expect((await runHook("claude-code", "pre-compact", payload, config)).exitCode).toBe(0);
    expect(await storedSpans(session.id)).toHaveLength(afterSecond.length);
  });

  // Read to 30 lines, the cursor's base lies before the end (a call awaits its result); read to 20,
  // the base is the end itself, and a cut below it leaves nothing past the base to read.
  it.each([30, 20])(
    "a transcript read to %i lines, rewritten shorter, is read again from its start, and what follows is still sent",
    async (first) => {
      const { project, config, dir } = await setup(`hook-cc-rewritten-${first}`);
      const bytes = fixture("claude-code/spotter-tool-heavy.jsonl");
      const transcript = join(dir, "session.jsonl");
      const sessionId = importTranscript(bytes, "claude-code").sessions[0]!.externalId;
      const payload = JSON.stringify({ session_id: sessionId, transcript_path: transcript, hook_event_name: "PreCompact" });
      const cursor = () => JSON.parse(readFileSync(join(config.stateDir, readdirSync(config.stateDir)[0]!), "utf8"));

      writeFileSync(transcript, head(bytes, first));
      expect((await runHook("claude-code", "pre-compact", payload, config)).exitCode).toBe(0);
      expect(cursor().base.bytes).toBeGreaterThan(0); // the next read starts past the beginning
      expect(cursor().base.bytes === cursor().bytes).toBe(first === 20);
      writeFileSync(transcript, head(bytes, 10));
      expect(await runHook("claude-code", "pre-compact", payload, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      expect(cursor()).toMatchObject({ bytes: head(bytes, 10).byteLength, lines: 10 });
      writeFileSync(transcript, bytes);
      expect((await runHook("claude-code", "pre-compact", payload, config)).exitCode).toBe(0);
      expect(cursor()).toMatchObject({ bytes: bytes.byteLength });

      const session = await db().session.findUniqueOrThrow({
        where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
      });
      const whole = await makeTestProject(`hook-cc-rewritten-whole-${first}`);
      const full = await importTranscriptFile(whole.id, bytes, { format: "claude-code", requester: "test" });
      expect(await storedSpans(session.id)).toEqual(await storedSpans(full.sessions[0]!.id));
    },
  );

  it("a transcript whose fields hold NUL characters is imported: the bytes keep them exactly, the hook allows", async () => {
    const { project, config, dir } = await setup("hook-nul");
    // The real session with a NUL in its working directory (a span and session field stored as text)
    // and in the text of its messages and tool input (bytes), as JSON escapes the way a runtime writes them.
    const text = fixture("claude-code/spotter-tool-heavy.jsonl")
      .toString("utf8")
      .replaceAll("/home/marco/projects/spotter", "/home/marco/projects/spot\\u0000ter");
    expect(text).toContain("\\u0000");
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, text);
    const sessionId = importTranscript(Buffer.from(text), "claude-code").sessions[0]!.externalId;
    const payload = JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
    });
    const answer = await runHook("claude-code", "pre-compact", payload, { ...config, failClosed: true });
    expect(answer.stderr).toBe("");
    expect(answer.exitCode).toBe(0);
    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
    });
    const expected = importTranscript(Buffer.from(text), "claude-code").sessions[0]!.spans;
    const stored = await db().span.findMany({
      where: { sessionId: session.id },
      orderBy: { seq: "asc" },
      include: { original: true },
    });
    expect(stored).toHaveLength(expected.length);
    const withNul = expected.filter((s) => Buffer.from(s.body).includes(0));
    expect(withNul.length).toBeGreaterThan(0);
    for (const span of expected) {
      const row = stored.find((r) => r.seq === span.seq)!;
      expect(Buffer.from(row.original!.bytes!).equals(Buffer.from(span.body))).toBe(true);
    }
  });

  it("a hook at every few lines of real sessions ends with exactly what one import of the whole file holds", async () => {
    for (const [file, format, step] of [
      ["claude-code/spotter-subagent-progress.jsonl", "claude-code", 7],
      ["claude-code/spotter-tool-heavy.jsonl", "claude-code", 3],
      ["codex/codemie-tui-0.125.jsonl", "codex", 41],
    ] as const) {
      const { project, config, dir } = await setup(`hook-steps-${format}`);
      const bytes = fixture(file);
      const sessionId = importTranscript(bytes, format).sessions[0]!.externalId;
      const transcript = join(dir, "t.jsonl");
      const payload = JSON.stringify({
        session_id: sessionId,
        transcript_path: transcript,
        cwd: dir,
        hook_event_name: "PreCompact",
        trigger: "auto",
      });
      const lines = bytes.toString("utf8").split("\n").length;
      for (let cut = step; cut < lines + step; cut += step) {
        writeFileSync(transcript, head(bytes, Math.min(cut, lines)));
        const answer = await runHook(format, "pre-compact", payload, config);
        expect(answer, `${file} at line ${cut}`).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      }
      writeFileSync(transcript, bytes);
      await runHook(format, "pre-compact", payload, config);
      const session = await db().session.findUniqueOrThrow({
        where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
      });
      const whole = await makeTestProject(`hook-steps-whole-${format}`);
      const full = await importTranscriptFile(whole.id, bytes, { format, requester: "test" });
      expect(await storedSpans(session.id), file).toEqual(await storedSpans(full.sessions[0]!.id));
      // Parsing from a quiescent line is no file that starts after its session began: the records
      // skipped are the full import's, and none (these files are whole).
      const skipped = (id: string) =>
        db().skippedRecord.findMany({ where: { sessionId: id }, select: { line: true, reason: true } });
      expect(await skipped(session.id), file).toEqual(await skipped(full.sessions[0]!.id));
      expect(await skipped(session.id), file).toEqual([]);
    }
  }, 120_000);

  it("after compaction, session-start links the compaction (replaced spans reclaimed with a pointer) and prints the ledger", async () => {
    const { project, config, dir } = await setup("hook-cc-compact");
    const bytes = fixture("claude-code-session.jsonl");
    const lines = bytes.toString("utf8").split("\n");
    const boundary = lines.findIndex((l) => l.includes('"compact_boundary"'));
    expect(boundary).toBeGreaterThan(0);
    const sessionId = (JSON.parse(lines[boundary]!) as { sessionId: string }).sessionId;
    const transcript = join(dir, "session.jsonl");
    const pre = JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "",
    });
    writeFileSync(transcript, head(bytes, boundary));
    expect((await runHook("claude-code", "pre-compact", pre, config)).exitCode).toBe(0);

    writeFileSync(transcript, bytes);
    const start = JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "SessionStart",
      source: "compact",
    });
    const answer = await runHook("claude-code", "session-start", start, config);
    expect(answer.exitCode).toBe(0);
    const context = JSON.parse(answer.stdout).hookSpecificOutput;
    expect(context.hookEventName).toBe("SessionStart");
    expect(context.additionalContext).toContain("Custodian evidence ledger");

    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: sessionId } },
    });
    const links = await db().summaryLink.findMany({ where: { sessionId: session.id } });
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.pointerSha256 !== null)).toBe(true);
    const replaced = await db().span.findMany({
      where: { sessionId: session.id, id: { in: links.map((l) => l.replacedSpanId) } },
    });
    expect(replaced.every((s) => s.transcriptState.startsWith("RECLAIMED") && s.hasPointer)).toBe(true);
    const sideEffects = await db().span.findMany({
      where: { sessionId: session.id, class: "SIDE_EFFECTING", kind: "TOOL_CALL" },
    });
    expect(sideEffects.length).toBeGreaterThan(0);
    expect(context.additionalContext).toContain(`[span ${sideEffects[0]!.id}]`);
  });

  it("with the server down: fail-open continues, fail-closed blocks with exit 2 and a one-line reason", async () => {
    const { config, dir } = await setup("hook-cc-down", { url: "http://127.0.0.1:9" });
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, fixture("claude-code/spotter-tool-heavy.jsonl"));
    const payload = JSON.stringify({
      session_id: "s-1",
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    const open = await runHook("claude-code", "pre-compact", payload, config);
    expect(open.exitCode).toBe(0);
    expect(open.stdout).toBe("");
    expect(open.stderr).toMatch(/^custodian: Custodian server unreachable at http:\/\/127\.0\.0\.1:9.*fail-open\)\n$/);
    const closed = await runHook("claude-code", "pre-compact", payload, { ...config, failClosed: true });
    expect(closed.exitCode).toBe(2);
    expect(closed.stderr.trim().split("\n")).toHaveLength(1);
    expect(closed.stderr).toContain("Custodian blocked compaction: Custodian server unreachable");
  });

  it("blocks (fail-closed) or warns (fail-open) when the policy lets originals the compaction may drop expire before their horizon", async () => {
    // Side-effecting originals kept 7 days under a 400-day horizon: EXPIRING, which the gate refuses.
    const shortLived = {
      ...DEFAULT_POLICY,
      evidenceHorizonDays: 400,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, SIDE_EFFECTING: 7, STRUCTURED: 7 },
    };
    const { config, dir } = await setup("hook-cc-expiring", { failClosed: true }, shortLived);
    const bytes = fixture("claude-code/spotter-tool-heavy.jsonl");
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, bytes);
    const sessionId = importTranscript(bytes, "claude-code").sessions[0]!.externalId;
    const payload = JSON.stringify({
      session_id: sessionId,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: "PreCompact",
      trigger: "auto",
    });
    const closed = await runHook("claude-code", "pre-compact", payload, config);
    expect(closed.exitCode).toBe(2);
    expect(closed.stderr).toMatch(
      /^Custodian blocked compaction: \d+ spans? the compaction may drop ha(s|ve) no durable original \(e\.g\. span [0-9a-f-]{36}/,
    );
    const open = await runHook("claude-code", "pre-compact", payload, { ...config, failClosed: false });
    expect(open.exitCode).toBe(0);
    expect(open.stdout).toBe("");
    expect(open.stderr).toContain("no durable original");
  });

  it("malformed stdin, an unknown event and a server that never answers end within the limit, without a trace", async () => {
    const { config } = await setup("hook-cc-bad", { url: silentUrl, timeoutMs: 300 });
    const bad = await runHook("claude-code", "pre-compact", "{not json", config);
    expect(bad).toEqual({
      stdout: "",
      stderr: "custodian: the hook input on stdin is not JSON (compaction continues: fail-open)\n",
      exitCode: 0,
    });
    expect((await runHook("claude-code", "pre-tool-use", "{}", config)).stderr).toContain(
      'unknown claude-code hook event "pre-tool-use"',
    );
    const started = Date.now();
    const slow = await runHook("claude-code", "pre-compact", JSON.stringify({ session_id: "s", transcript_path: null }), {
      ...config,
      failClosed: true,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow.exitCode).toBe(2);
    expect(slow.stderr).toContain("no answer within 300 ms");
  });
});

describe("codex hooks", () => {
  it("pre-compact imports a real rollout; post-compact and session-start link the compaction and print the ledger", async () => {
    const { project, config, dir } = await setup("hook-codex");
    const real = fixture("codex/codemie-tui-0.125.jsonl");
    const realId = importTranscript(real, "codex").sessions[0]!.externalId;
    const realPath = join(dir, "real.jsonl");
    writeFileSync(realPath, real);
    const pre = (id: string, path: string | null) =>
      JSON.stringify({
        session_id: id,
        turn_id: "t-1",
        transcript_path: path,
        cwd: dir,
        hook_event_name: "PreCompact",
        model: "gpt-5",
        trigger: "auto",
      });
    expect(await runHook("codex", "pre-compact", pre(realId, realPath), config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const realSession = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: realId } },
    });
    expect((await storedSpans(realSession.id)).length).toBe(importTranscript(real, "codex").sessions[0]!.spans.length);
    // transcript_path may be null: nothing to import, the hook still answers.
    expect((await runHook("codex", "pre-compact", pre(realId, null), config)).exitCode).toBe(0);

    const sample = fixture("codex/rollout-sample.jsonl");
    const sampleId = importTranscript(sample, "codex").sessions[0]!.externalId;
    const samplePath = join(dir, "sample.jsonl");
    writeFileSync(samplePath, sample);
    const post = JSON.stringify({
      session_id: sampleId,
      turn_id: "t-2",
      transcript_path: samplePath,
      cwd: dir,
      hook_event_name: "PostCompact",
      model: "gpt-5",
      trigger: "auto",
    });
    expect(await runHook("codex", "post-compact", post, config)).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: sampleId } },
    });
    expect(await db().summaryLink.count({ where: { sessionId: session.id } })).toBeGreaterThan(0);
    const start = JSON.stringify({
      session_id: sampleId,
      transcript_path: samplePath,
      cwd: dir,
      hook_event_name: "SessionStart",
      source: "compact",
      model: "gpt-5",
    });
    const answer = await runHook("codex", "session-start", start, config);
    expect(JSON.parse(answer.stdout).hookSpecificOutput.additionalContext).toContain("side-effecting action");
  });

  it("with the server down and fail-closed, pre-compact answers Codex's block (continue false, exit 0)", async () => {
    const { config, dir } = await setup("hook-codex-down", { url: "http://127.0.0.1:9", failClosed: true });
    const path = join(dir, "real.jsonl");
    writeFileSync(path, fixture("codex/real-exec-0.135.jsonl"));
    const answer = await runHook(
      "codex",
      "pre-compact",
      JSON.stringify({
        session_id: "x",
        turn_id: "t",
        transcript_path: path,
        cwd: dir,
        hook_event_name: "PreCompact",
        trigger: "auto",
      }),
      config,
    );
    expect(answer.exitCode).toBe(0);
    const out = JSON.parse(answer.stdout);
    expect(out.continue).toBe(false);
    expect(out.stopReason).toContain("Custodian server unreachable");
  });
});

describe("hook install", () => {
  it("merges into existing settings without clobbering other hooks; --dry-run writes nothing; again changes nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "custodian-install-"));
    const path = join(dir, ".claude", "settings.json");
    const theirs = {
      model: "opus",
      hooks: { PreCompact: [{ matcher: "", hooks: [{ type: "command", command: "backup.sh" }] }] },
    };
    mkdirSync(join(dir, ".claude"), { recursive: true });
    writeFileSync(path, JSON.stringify(theirs));
    const dry = installHooks("claude-code", { user: false, dryRun: true, cwd: dir, command: "custodian" });
    expect(dry.written).toBe(false);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(theirs);
    const done = installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian" });
    const after = JSON.parse(readFileSync(path, "utf8"));
    expect(done.written).toBe(true);
    expect(after.model).toBe("opus");
    expect(after.hooks.PreCompact.flatMap((g: { hooks: Array<{ command: string }> }) => g.hooks.map((h) => h.command))).toEqual([
      "backup.sh",
      "custodian hook claude-code pre-compact",
    ]);
    expect(after.hooks.SessionStart).toEqual([
      { matcher: "compact", hooks: [{ type: "command", command: "custodian hook claude-code session-start", timeout: 15 }] },
    ]);
    // Every session is captured: its end, each stop, each subagent's stop, and the runtime's summary.
    const ours = (event: string) =>
      after.hooks[event].flatMap((g: { hooks: Array<{ command: string }> }) => g.hooks.map((h) => h.command));
    expect(ours("Stop")).toEqual(["custodian hook claude-code stop"]);
    expect(ours("SessionEnd")).toEqual(["custodian hook claude-code session-end"]);
    expect(ours("SubagentStop")).toEqual(["custodian hook claude-code subagent-stop"]);
    expect(ours("PostCompact")).toEqual(["custodian hook claude-code post-compact"]);
    expect(after.hooks.Stop[0].matcher).toBeUndefined(); // Stop takes no matcher
    expect(JSON.parse(dry.after)).toEqual(after); // --dry-run shows exactly what it would write
    expect(installHooks("claude-code", { user: false, dryRun: false, cwd: dir, command: "custodian" }).written).toBe(false);

    const codex = installHooks("codex", { user: true, dryRun: false, cwd: dir, home: dir, command: "custodian" });
    expect(codex.path).toBe(join(dir, ".codex", "hooks.json"));
    expect(Object.keys(JSON.parse(readFileSync(codex.path, "utf8")).hooks).sort()).toEqual([
      "PostCompact",
      "PreCompact",
      "SessionStart",
      "Stop",
      "SubagentStop",
    ]);
    const codexHooks = JSON.parse(readFileSync(codex.path, "utf8")).hooks;
    expect(codexHooks.SubagentStop).toEqual([
      { matcher: "", hooks: [{ type: "command", command: "custodian hook codex subagent-stop", timeout: 15 }] },
    ]);
    expect(existsSync(codex.path)).toBe(true);
  });

  it("installs a command the runtime can run from any directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "custodian-install-run-"));
    const { path } = installHooks("claude-code", { user: false, dryRun: false, cwd: dir });
    const command = JSON.parse(readFileSync(path, "utf8")).hooks.PreCompact[0].hooks[0].command as string;
    const run = spawnSync("sh", ["-c", command], {
      cwd: dir,
      input: JSON.stringify({ session_id: "s", transcript_path: null, cwd: dir, hook_event_name: "PreCompact", trigger: "auto" }),
      env: {
        ...process.env,
        CUSTODIAN_URL: "http://127.0.0.1:9",
        CUSTODIAN_KEY: "k",
        CUSTODIAN_FAIL_CLOSED: "1",
        CUSTODIAN_CONFIG: join(dir, "none.json"),
      },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^Custodian blocked compaction: Custodian server unreachable at http:\/\/127\.0\.0\.1:9/);
  }, 60_000);
});
