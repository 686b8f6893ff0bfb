/**
 * `npm run bench:import`: importing a large real-shaped transcript end to end, per format.
 *
 * The transcripts are built from the real fixtures: the Claude Code one repeats the three real
 * session files (user and assistant messages, tool_use and tool_result blocks with the real
 * commands and file edits, thinking, subagent progress, a subagent's sidechain, hook progress,
 * system records, snapshots), each repetition with its own uuids, message, request and tool ids,
 * agent ids, timestamps and project paths, so every span is distinct and every parent chain holds.
 * The Codex one follows the real `codex exec` rollout's records (session_meta, task_started,
 * turn_context, user messages recorded as item and event, agent_message, token_count,
 * task_complete) turn after turn, with the calls a rollout holds between them (reasoning,
 * function_call shell, custom_tool_call apply_patch, exec_command_end, outputs) filled with the
 * real commands, edits and outputs of the Claude Code fixtures, since the real rollout's own text
 * is redacted.
 *
 * Each file is imported through importTranscriptFile into a fresh database, in a child process of
 * its own so its peak RSS is the import's. Reported: MB/s end to end (wall), and the split in CPU
 * time, which holds on a busy machine: this process's (parse: the importer alone; analysis:
 * analyzeSpan over every span; hashing; all three timed again as phases on the same bytes; the rest:
 * rows, COPY text, the protocol), and the Postgres backends' (the database writes); peak RSS and heap.
 *
 * BENCH_IMPORT_MB (default 50) sets each file's size. Timing lives here only: no pass/fail on speed.
 * To profile one import: `tsx lib/bench/import.bench.ts generate <file> <format>`, then
 * `node --cpu-prof --import tsx lib/bench/import.bench.ts child <file> <format> <migrated database url>`.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { env } from "@/lib/core/env";
import { sha256Hex } from "@/lib/core/hash";
import pg from "pg";
import { disconnectDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { createTestDatabase } from "@/lib/db/test-database";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { importTranscript } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/types";
import { createProject } from "@/lib/server/admin";
import { importTranscriptFile } from "@/lib/server/imports";
import { runMain } from "@/lib/runner/run-main";

const MB = 1_000_000;
const FIXTURES = resolve("lib/importers/fixtures");

// --- Claude Code -------------------------------------------------------------------------------

const CLAUDE_FILES = ["spotter-subagent-progress.jsonl", "spotter-tool-heavy.jsonl", "spotter-agent-aac57f5.jsonl"];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const PROVIDER_ID = /\b(toolu|msg|req)_[A-Za-z0-9]{6,}/g;

const claudeLines = (file: string) =>
  readFileSync(join(FIXTURES, "claude-code", file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");

/** The last 6 characters of an id become the repetition's number: same length, same alphabet. */
const varyId = (id: string, rep: number, radix: number) => id.slice(0, -6) + rep.toString(radix).padStart(6, "0").slice(-6);

function shiftTime(iso: string, offsetMs: number): string {
  return new Date(Date.parse(iso) + offsetMs).toISOString();
}

/**
 * One Claude Code session of about `targetBytes`: the real files' records, repetition after
 * repetition, in one session (a long session spawning many subagents).
 */
export function claudeCodeTranscript(targetBytes: number): string {
  const files = CLAUDE_FILES.map(claudeLines);
  const sessionIds = new Set(
    files
      .flat()
      .map((l) => (JSON.parse(l) as { sessionId?: string }).sessionId)
      .filter(Boolean),
  );
  const agentIds = [
    ...new Set(
      files
        .flat()
        .map((l) => (JSON.parse(l) as { agentId?: string }).agentId)
        .filter(Boolean),
    ),
  ];
  const session = "5b0c2f4e-9d1a-4c8e-b7f3-a1d2e3f4b5c6";
  const times = files
    .flat()
    .flatMap((l) => l.match(TIMESTAMP) ?? [])
    .map(Date.parse);
  const period = Math.max(...times) - Math.min(...times) + 60_000;
  const out: string[] = [];
  let bytes = 0;
  for (let rep = 0; bytes < targetBytes; rep++) {
    const project = `/projects/spotter-${rep}`;
    for (const lines of files) {
      for (const line of lines) {
        let varied = line
          .replace(UUID, (u) => (sessionIds.has(u) ? session : varyId(u, rep, 16)))
          .replace(PROVIDER_ID, (id) => varyId(id, rep, 36))
          .replace(TIMESTAMP, (t) => shiftTime(t, rep * period))
          .replaceAll("/projects/spotter", project);
        for (const agent of agentIds) varied = varied.replaceAll(agent as string, varyId(`x${agent}`, rep, 16).slice(1));
        out.push(varied);
        bytes += Buffer.byteLength(varied) + 1;
      }
    }
  }
  return `${out.join("\n")}\n`;
}

// --- Codex -------------------------------------------------------------------------------------

interface Content {
  prompts: string[];
  texts: string[];
  thinking: string[];
  commands: string[];
  outputs: string[];
  edits: Array<{ file_path: string; old_string: string; new_string: string }>;
}

/** The real commands, edits, outputs and texts of the Claude Code fixtures. */
function realContent(): Content {
  const c: Content = { prompts: [], texts: [], thinking: [], commands: [], outputs: [], edits: [] };
  const visit = (message: { role?: string; content?: unknown }) => {
    if (typeof message.content === "string") {
      if (message.role === "user" && !message.content.startsWith("<")) c.prompts.push(message.content);
      return;
    }
    if (!Array.isArray(message.content)) return;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type === "text" && typeof block.text === "string")
        (message.role === "user" ? c.prompts : c.texts).push(block.text);
      if (block.type === "thinking" && typeof block.thinking === "string") c.thinking.push(block.thinking);
      if (block.type === "tool_use") {
        const input = block.input as Record<string, unknown>;
        if (typeof input.command === "string") c.commands.push(input.command);
        if (typeof input.old_string === "string") c.edits.push(input as Content["edits"][number]);
      }
      if (block.type === "tool_result") {
        const content = block.content;
        const text =
          typeof content === "string"
            ? content
            : Array.isArray(content)
              ? content.map((b: { text?: string }) => b.text ?? "").join("\n")
              : "";
        if (text) c.outputs.push(text);
      }
    }
  };
  for (const file of CLAUDE_FILES) {
    for (const line of claudeLines(file)) {
      const r = JSON.parse(line) as { message?: { role?: string }; data?: { message?: { message?: { role?: string } } } };
      if (r.message) visit(r.message);
      if (r.data?.message?.message) visit(r.data.message.message);
    }
  }
  return c;
}

/** The real rollout's records, by type, as templates. */
function codexTemplates() {
  const lines = readFileSync(join(FIXTURES, "codex", "real-exec-0.135.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { timestamp: string; type: string; payload: Record<string, unknown> });
  const find = (type: string, payloadType?: string, role?: string) =>
    structuredClone(
      lines.find(
        (l) =>
          l.type === type &&
          (payloadType === undefined || l.payload.type === payloadType) &&
          (role === undefined || l.payload.role === role),
      )!,
    );
  return {
    meta: find("session_meta"),
    started: find("event_msg", "task_started"),
    context: find("turn_context"),
    developer: find("response_item", "message", "developer"),
    user: lines.filter((l) => l.type === "response_item" && l.payload.role === "user").at(-1)!,
    userEvent: find("event_msg", "user_message"),
    agentEvent: find("event_msg", "agent_message"),
    assistant: find("response_item", "message", "assistant"),
    tokens: find("event_msg", "token_count"),
    complete: find("event_msg", "task_complete"),
  };
}

/** A Codex rollout of about `targetBytes`: one session, turn after turn. */
export function codexTranscript(targetBytes: number): string {
  const t = codexTemplates();
  const c = realContent();
  const out: string[] = [];
  let bytes = 0;
  let clock = Date.parse(t.meta.timestamp);
  const cwd = "/home/dev/work/spotter";
  const emit = (type: string, payload: Record<string, unknown>) => {
    clock += 137;
    const line = JSON.stringify({ timestamp: new Date(clock).toISOString(), type, payload });
    out.push(line);
    bytes += Buffer.byteLength(line) + 1;
  };
  const pick = <T>(xs: T[], i: number): T => xs[i % xs.length]!;
  emit("session_meta", { ...t.meta.payload, cwd, timestamp: new Date(clock).toISOString() });
  emit("response_item", t.developer.payload);
  let call = 0;
  for (let turn = 0; bytes < targetBytes; turn++) {
    const turnId = varyId(t.started.payload.turn_id as string, turn, 16);
    const dir = `${cwd}/packages/pkg-${turn % 97}`;
    const local = (s: string) => s.replaceAll("/home/marco/projects/spotter", dir).replaceAll("/home/USER/projects", dir);
    emit("event_msg", { ...t.started.payload, turn_id: turnId, started_at: Math.floor(clock / 1000) });
    emit("turn_context", {
      ...t.context.payload,
      turn_id: turnId,
      cwd: dir,
      current_date: new Date(clock).toISOString().slice(0, 10),
    });
    const prompt = `${local(pick(c.prompts, turn))} (turn ${turn})`;
    emit("response_item", { ...t.user.payload, content: [{ type: "input_text", text: prompt }] });
    emit("event_msg", { ...t.userEvent.payload, message: prompt });
    const calls = 3 + (turn % 6);
    for (let k = 0; k < calls; k++, call++) {
      const callId = `call_${createHash("sha1").update(String(call)).digest("base64url").slice(0, 24)}`;
      emit("response_item", {
        type: "reasoning",
        summary: [{ type: "summary_text", text: local(pick(c.thinking, call)).slice(0, 400) }],
        content: null,
        encrypted_content: createHash("sha256").update(callId).digest("base64"),
      });
      if (call % 5 === 4 && c.edits.length > 0) {
        const edit = pick(c.edits, call);
        const file = local(edit.file_path);
        const patch = [
          "*** Begin Patch",
          `*** Update File: ${file}`,
          "@@",
          ...edit.old_string.split("\n").map((l) => `-${l}`),
          ...edit.new_string.split("\n").map((l) => `+${l}`),
          "*** End Patch",
        ].join("\n");
        emit("response_item", {
          type: "custom_tool_call",
          status: "completed",
          call_id: callId,
          name: "apply_patch",
          input: patch,
        });
        emit("response_item", {
          type: "custom_tool_call_output",
          call_id: callId,
          output: JSON.stringify({
            output: `Success. Updated the following files:\nM ${file}\n`,
            metadata: { exit_code: 0, duration_seconds: 0.0 },
          }),
        });
        continue;
      }
      const command = local(pick(c.commands, call));
      const output = local(pick(c.outputs, call * 7 + turn));
      const exitCode = call % 11 === 3 ? 1 : 0;
      emit("response_item", {
        type: "function_call",
        name: "shell",
        arguments: JSON.stringify({ command: ["bash", "-lc", command], workdir: dir, timeout_ms: 120000 }),
        call_id: callId,
      });
      emit("event_msg", {
        type: "exec_command_end",
        call_id: callId,
        command: ["bash", "-lc", command],
        cwd: dir,
        stdout: output,
        stderr: "",
        aggregated_output: output,
        exit_code: exitCode,
        duration: { secs: 0, nanos: 120_000_000 + call },
        formatted_output: output,
      });
      emit("response_item", {
        type: "function_call_output",
        call_id: callId,
        output: `Exit code: ${exitCode}\nWall time: 0.1 seconds\nOutput:\n${output}`,
      });
    }
    const answer = local(pick(c.texts, turn));
    emit("event_msg", { ...t.agentEvent.payload, message: answer });
    emit("response_item", { ...t.assistant.payload, content: [{ type: "output_text", text: answer }] });
    emit("event_msg", t.tokens.payload);
    emit("event_msg", {
      ...t.complete.payload,
      turn_id: turnId,
      last_agent_message: answer,
      completed_at: Math.floor(clock / 1000),
    });
  }
  return `${out.join("\n")}\n`;
}

// --- the child: one import, measured -------------------------------------------------------------

interface ChildReport {
  format: ImportFormat;
  bytes: number;
  spans: number;
  sessions: number;
  records: { read: number; used: number; ignored: number; skipped: number };
  issues: number;
  endToEndMs: number;
  cpuMs: number;
  /** CPU time of the Postgres backends serving this database (null off Linux). */
  postgresCpuMs: number | null;
  parseMs: number;
  analysisMs: number;
  hashMs: number;
  peakRssMb: number;
  peakHeapMb: number;
  baseRssMb: number;
}

async function child(file: string, format: ImportFormat, databaseUrl: string): Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  const project = await createProject({ slug: `bench-${format}`, name: `Bench ${format}` });
  const baseRssMb = process.memoryUsage().rss / 2 ** 20;
  const bytes: Uint8Array = readFileSync(file);
  let peakHeap = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await importTranscriptFile(project.id, bytes, { format, requester: "bench", onProgress: sample });
  const endToEndMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  sample();
  clearInterval(timer);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const postgresCpuMs = await backendCpuMs(databaseUrl);
  await disconnectDb();

  // The phases alone, on the same bytes (warm: the import above ran them once already).
  // CPU time, not wall: the phases are pure computation, and CPU time holds on a busy machine.
  const cpuNow = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let t = cpuNow();
  const parsed = importTranscript(bytes, format);
  const parseMs = cpuNow() - t;
  const spans = parsed.sessions.flatMap((s) => s.spans.map((span) => ({ span, cwd: s.cwd })));
  t = cpuNow();
  for (const { span, cwd } of spans) {
    analyzeSpan({
      body: span.body,
      kind: span.kind,
      role: span.role,
      toolName: span.toolName,
      toolInput: span.toolInput,
      exitCode: span.exitCode,
      cwd: span.cwd ?? cwd,
    });
  }
  const analysisMs = cpuNow() - t;
  t = cpuNow();
  for (const { span } of spans) sha256Hex(span.body);
  const hashMs = cpuNow() - t;

  const report: ChildReport = {
    format,
    bytes: bytes.byteLength,
    spans: outcome.spans,
    sessions: outcome.sessions.length,
    records: outcome.records,
    issues: outcome.issues.length,
    endToEndMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    postgresCpuMs,
    parseMs,
    analysisMs,
    hashMs,
    peakRssMb,
    peakHeapMb: peakHeap / 2 ** 20,
    baseRssMb,
  };
  console.log(`REPORT ${JSON.stringify(report)}`);
}

/**
 * CPU time used so far by the Postgres backends connected to the database (the import's pool is
 * still open), from /proc: what the import cost Postgres, whatever else the machine is running.
 */
async function backendCpuMs(url: string): Promise<number | null> {
  if (!existsSync("/proc/self/stat")) return null;
  const client = new pg.Client(parseDatabaseUrl(url));
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const ticks = rows.reduce((sum, { pid }) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return sum + Number(rest[11]) + Number(rest[12]);
      } catch {
        return sum;
      }
    }, 0);
    return ticks * 10;
  } finally {
    await client.end();
  }
}

// --- the parent: files, database, children, table -------------------------------------------------

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main() {
  const [mode, file, format, url] = process.argv.slice(2);
  if (mode === "child") return child(file!, format as ImportFormat, url!);
  if (mode === "generate") {
    writeFileSync(file!, (format === "codex" ? codexTranscript : claudeCodeTranscript)((env().BENCH_IMPORT_MB ?? 50) * MB));
    return;
  }

  const target = (env().BENCH_IMPORT_MB ?? 50) * MB;
  const dir = mkdtempSync(join(tmpdir(), "custodian-import-bench-"));
  const database = await createTestDatabase("importbench");
  try {
    const files: Array<[ImportFormat, string]> = [];
    for (const [format, build] of [
      ["claude-code", claudeCodeTranscript],
      ["codex", codexTranscript],
    ] as const) {
      const t0 = performance.now();
      const text = build(target);
      const path = join(dir, `${format}.jsonl`);
      writeFileSync(path, text);
      console.log(`${format}: ${fmt(Buffer.byteLength(text) / MB)} MB generated in ${fmt((performance.now() - t0) / 1000)} s`);
      files.push([format, path]);
    }
    for (const [format, path] of files) {
      const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, "child", path, format, database.url], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 64 * MB,
      });
      const line = run.stdout.split("\n").find((l) => l.startsWith("REPORT "));
      if (run.status !== 0 || !line) throw new Error(`the ${format} import failed (exit ${run.status}):\n${run.stdout}`);
      print(JSON.parse(line.slice(7)) as ChildReport);
    }
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(r: ChildReport): void {
  const mb = r.bytes / MB;
  const cpu = (ms: number) => `${fmt(ms / 1000, 2).padStart(6)} s CPU`;
  const rest = r.cpuMs - r.parseMs - r.analysisMs - r.hashMs;
  console.log(`\n${r.format}: ${fmt(mb)} MB, ${r.sessions} sessions, ${r.spans} spans`);
  console.log(
    `  records: ${r.records.read} read, ${r.records.used} used, ${r.records.ignored} ignored, ${r.records.skipped} skipped; ${r.issues} issues`,
  );
  console.log(`  end to end: ${fmt(r.endToEndMs / 1000, 2)} s wall, ${fmt(mb / (r.endToEndMs / 1000))} MB/s`);
  console.log(`  this process ${cpu(r.cpuMs)}   (${fmt(mb / (r.cpuMs / 1000))} MB/s of its CPU)`);
  console.log(`    parse        ${cpu(r.parseMs)}`);
  console.log(`    analysis     ${cpu(r.analysisMs)}`);
  console.log(`    hashing      ${cpu(r.hashMs)}`);
  console.log(`    writes, rest ${cpu(rest)}   (rows, COPY text, the protocol, Prisma, GC)`);
  if (r.postgresCpuMs !== null) {
    console.log(`  Postgres     ${cpu(r.postgresCpuMs)}   (its backends for this database: the database writes)`);
    const busiest = Math.max(r.cpuMs, r.postgresCpuMs);
    console.log(
      `  on two idle cores, with writes overlapping analysis: at most ${fmt(mb / (busiest / 1000))} MB/s; on one core ${fmt(mb / ((r.cpuMs + r.postgresCpuMs) / 1000))} MB/s`,
    );
  }
  console.log(
    `  peak RSS ${fmt(r.peakRssMb, 0)} MB (${fmt(r.baseRssMb, 0)} MB before reading the file: ${fmt((r.peakRssMb - r.baseRssMb) / mb)}x the file), peak heap sampled ${fmt(r.peakHeapMb, 0)} MB`,
  );
}

runMain(main);
