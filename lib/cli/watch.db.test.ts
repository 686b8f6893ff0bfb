/**
 * `custodian watch --once` over a home folder laid out as the runtimes lay it out, holding real
 * transcripts (the fixtures' SOURCES.md name where each comes from): the first pass imports every
 * session exactly as a file import does, a second imports nothing, and records appended to one file
 * are all the third imports. Cursors live in the database, so each pass here starts from them alone.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { importTranscript } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { transcriptsAtRisk } from "@/lib/server/capture";
import { importTranscriptFile } from "@/lib/server/imports";
import { runWatch, type WatchOptions, watchOnce } from "./watch-command";

const FIXTURES = "lib/importers/fixtures";
const PARENT = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
const DAY = 86_400_000;

const fixture = (name: string) => {
  const bytes = readFileSync(join(FIXTURES, name));
  return name.endsWith(".gz") ? gunzipSync(bytes) : bytes;
};

interface Placed {
  format: ImportFormat;
  fixture: string;
  /** Where the runtime writes it, under the home folder. */
  at: (bytes: Buffer) => string;
}

const idOf = (bytes: Buffer, format: ImportFormat) => importTranscript(bytes, format).sessions[0]!.externalId;

const PLACED: Placed[] = [
  {
    format: "claude-code",
    fixture: "claude-code/spotter-tool-heavy.jsonl",
    at: (b) => `.claude/projects/-home-user-spotter/${idOf(b, "claude-code")}.jsonl`,
  },
  {
    format: "claude-code",
    fixture: "claude-code/spotter-subagent-progress.jsonl",
    at: (b) => `.claude/projects/-home-user-spotter/${idOf(b, "claude-code")}.jsonl`,
  },
  {
    format: "claude-code",
    fixture: "claude-code/spotter-agent-aac57f5.jsonl",
    at: () => `.claude/projects/-home-user-spotter-4te/${PARENT}/subagents/agent-aac57f5.jsonl`,
  },
  {
    format: "codex",
    fixture: "codex/real-exec-0.135.jsonl",
    at: (b) => `.codex/sessions/2026/05/02/rollout-2026-05-02T10-11-12-${idOf(b, "codex")}.jsonl`,
  },
  {
    format: "codex",
    fixture: "codex/codemie-tui-0.125.jsonl",
    at: (b) => `.codex/sessions/2026/04/30/rollout-2026-04-30T08-00-00-${idOf(b, "codex")}.jsonl`,
  },
  {
    format: "gemini-cli",
    fixture: "gemini-cli/codemie-session-2025-12-01.json",
    at: () => ".gemini/tmp/5b959dae0c1f4f3a9e2b/chats/session-2025-12-01T21-45-5b959dae.json",
  },
  {
    format: "gemini-cli",
    fixture: "gemini-cli/agent-history-session-01.json",
    at: () => ".gemini/tmp/0d6f1e9a7c2b4d8e9f10/chats/session-2025-11-20T09-30-a1b2c3d4.json",
  },
];

afterEach(() => vi.restoreAllMocks());

const spansOf = (sessionId: string) =>
  db().span.findMany({
    where: { sessionId, seq: { not: null } },
    orderBy: { seq: "asc" },
    select: { seq: true, sha256: true, kind: true },
  });

function head(bytes: Buffer, lines: number): Buffer {
  let at = 0;
  for (let i = 0; i < lines; i++) at = bytes.indexOf(0x0a, at) + 1;
  return bytes.subarray(0, at);
}

/** What one pass printed on stdout. */
async function pass(projectId: string, options: WatchOptions) {
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    return { report: await watchOnce(projectId, options), out: lines.join("\n") };
  } finally {
    log.mockRestore();
    vi.restoreAllMocks();
  }
}

describe("custodian watch --once", () => {
  it("imports every session of a home folder, then nothing, then only what was appended", async () => {
    const home = mkdtempSync(join(tmpdir(), "custodian-watch-"));
    const project = await makeTestProject("watch");
    const options: WatchOptions = { project: project.slug, home, once: true, intervalMs: 1000, env: {} as NodeJS.ProcessEnv };
    const grown = PLACED.find((p) => p.fixture.endsWith("codemie-tui-0.125.jsonl"))!;
    const grownBytes = fixture(grown.fixture);
    const grownHead = head(grownBytes, 100);
    for (const placed of PLACED) {
      const bytes = fixture(placed.fixture);
      const path = join(home, placed.at(bytes));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, placed === grown ? grownHead : bytes);
    }

    const first = await pass(project.id, options);
    expect(first.report.files).toBe(PLACED.length);
    expect(first.report.failed).toEqual([]);
    expect(first.out).toContain(`${PLACED.length} transcripts:`);
    // Every session is there, holding exactly what a file import of the same bytes holds.
    for (const placed of PLACED) {
      const bytes = placed === grown ? grownHead : fixture(placed.fixture);
      const parsed = importTranscript(bytes, placed.format).sessions;
      expect(parsed, placed.fixture).toHaveLength(1);
      const session = await db().session.findUnique({
        where: { projectId_externalId: { projectId: project.id, externalId: parsed[0]!.externalId } },
      });
      expect(session, placed.fixture).not.toBeNull();
      const other = await makeTestProject("watch-whole");
      const full = await importTranscriptFile(other.id, bytes, { format: placed.format, requester: "test" });
      expect(await spansOf(session!.id), placed.fixture).toEqual(await spansOf(full.sessions[0]!.id));
    }
    const total = await db().span.count({ where: { session: { projectId: project.id } } });
    expect(first.report.imported).toBe(total);

    // Again: every cursor says nothing changed; nothing is read or stored.
    const second = await pass(project.id, options);
    expect(second.report).toMatchObject({ files: PLACED.length, changed: 0, imported: 0, failed: [] });
    expect(await db().span.count({ where: { session: { projectId: project.id } } })).toBe(total);

    // The runtime appends to one rollout: only its new records are imported.
    appendFileSync(join(home, grown.at(grownBytes)), grownBytes.subarray(grownHead.byteLength));
    const third = await pass(project.id, options);
    const added =
      importTranscript(grownBytes, "codex").sessions[0]!.spans.length -
      importTranscript(grownHead, "codex").sessions[0]!.spans.length;
    expect(added).toBeGreaterThan(0);
    expect(third.report).toMatchObject({ changed: 1, imported: added, failed: [] });
    expect(await db().span.count({ where: { session: { projectId: project.id } } })).toBe(total + added);
    const session = await db().session.findUniqueOrThrow({
      where: { projectId_externalId: { projectId: project.id, externalId: idOf(grownBytes, "codex") } },
    });
    const other = await makeTestProject("watch-grown-whole");
    const full = await importTranscriptFile(other.id, grownBytes, { format: "codex", requester: "test" });
    expect(await spansOf(session.id)).toEqual(await spansOf(full.sessions[0]!.id));
  }, 180_000);

  it("warns about a transcript Claude Code's cleanup deletes within 7 days that is not fully imported, and only that one", async () => {
    const home = mkdtempSync(join(tmpdir(), "custodian-watch-risk-"));
    const project = await makeTestProject("watch-risk");
    const options: WatchOptions = { project: project.slug, home, once: true, intervalMs: 1000, env: {} as NodeJS.ProcessEnv };
    const folder = join(home, ".claude", "projects", "-home-user-spotter");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 10 }));
    const whole = fixture("claude-code/spotter-subagent-progress.jsonl");
    const done = join(folder, `${idOf(whole, "claude-code")}.jsonl`);
    writeFileSync(done, whole);
    // Cut inside a record, as a file is while the runtime writes it: its last line is not imported yet.
    const cut = fixture("claude-code/spotter-tool-heavy.jsonl");
    const partial = join(folder, `${idOf(cut, "claude-code")}.jsonl`);
    writeFileSync(partial, cut.subarray(0, head(cut, 20).byteLength + 40));
    const old = new Date(Date.now() - 5 * DAY); // deleted in 5 days (cleanupPeriodDays 10)
    utimesSync(done, old, old);
    utimesSync(partial, old, old);
    const recent = join(folder, "recent.jsonl");
    writeFileSync(recent, cut.subarray(0, head(cut, 5).byteLength + 10)); // not complete, but kept 10 more days

    const { out } = await pass(project.id, options);
    const warnings = out.split("\n").filter((l) => l.startsWith("WARNING:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(partial);
    expect(warnings[0]).toMatch(/in [45] days/);
    expect(warnings[0]).toContain("40 bytes left");
    // The same facts, as a dashboard reads them.
    const risks = await transcriptsAtRisk(project.id, new Date());
    expect(risks.map((r) => [r.path, r.runtime, r.missingBytes])).toEqual([[partial, "claude-code", 40]]);
    expect(Math.abs(risks[0]!.deleteAt.getTime() - (old.getTime() + 10 * DAY))).toBeLessThan(1000);
  }, 120_000);

  it("custodian watch follows a file as the runtime appends to it, and stops when told", async () => {
    const home = mkdtempSync(join(tmpdir(), "custodian-watch-follow-"));
    const project = await makeTestProject("watch-follow");
    const bytes = fixture("claude-code/spotter-subagent-progress.jsonl");
    const path = join(home, ".claude", "projects", "-home-user-spotter", `${idOf(bytes, "claude-code")}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, head(bytes, 20));
    const controller = new AbortController();
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const following = runWatch({
      project: project.slug,
      home,
      once: false,
      intervalMs: 100,
      env: {} as NodeJS.ProcessEnv,
      signal: controller.signal,
    });
    const count = () => db().span.count({ where: { session: { projectId: project.id } } });
    const until = async (done: (n: number) => boolean) => {
      for (let i = 0; i < 300 && !done(await count()); i++) await new Promise((r) => setTimeout(r, 100));
      return count();
    };
    const before = await until((n) => n > 0);
    appendFileSync(path, bytes.subarray(head(bytes, 20).byteLength));
    const whole = importTranscript(bytes, "claude-code").sessions[0]!.spans.length;
    expect(await until((n) => n === whole)).toBe(whole);
    expect(before).toBeLessThan(whole);
    controller.abort();
    await following; // returns once aborted
  }, 120_000);
});
