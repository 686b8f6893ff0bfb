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
 * function_call shell, custom_tool_call apply_patch, exec_command_end, outputs, and unified exec
 * commands left running and polled as codex-tui writes them, some ending turns later) filled with the
 * real commands, edits and outputs of the Claude Code fixtures, since the real rollout's own text
 * is redacted.
 *
 * Each file is imported through importTranscriptFile into a fresh database, read from its file a
 * chunk at a time as the server reads a large upload, in a child process of its own so its peak RSS
 * is the import's. Reported: MB/s end to end (wall), and the split in CPU
 * time, which holds on a busy machine: this process's (parse: the importer alone; analysis:
 * analyzeSpan over every span; hashing; all three timed again as phases on the same bytes; the rest:
 * rows, COPY text, the protocol), and the Postgres backends' (the database writes); peak RSS and heap.
 *
 * BENCH_IMPORT_MB (default 50) sets each file's size. `--live` also measures what the import holds: the
 * child collects garbage at every progress report and takes the peak of heap and buffers above what
 * it held before the import (peak RSS says more about the collector's pace than about what is kept;
 * the forced collections slow the run, so its speed figures are not comparable). Timing lives here only: no pass/fail on speed.
 * To profile one import: `tsx lib/bench/import.bench.ts generate <file> <format>`, then
 * `node --cpu-prof --import tsx lib/bench/import.bench.ts child <file> <format> <migrated database url>`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { env } from "@/lib/core/env";
import { sha256Hex } from "@/lib/core/hash";
import pg from "pg";
import { disconnectDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { createTestDatabase } from "@/lib/db/test-database";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { importTranscript } from "@/lib/importers";
import type { ImportFormat } from "@/lib/importers/shared/types";
import { createProject } from "@/lib/server/admin";
import { fileSource, importTranscriptFile } from "@/lib/server/imports";
import { runMain } from "@/lib/runner/run-main";

import { claudeCodeTranscript, codexTranscript, MB } from "./import-transcripts";

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
  /** With --live: the most heap and buffers held at once above the base (after a collection). */
  peakLiveMb: number | null;
}

async function child(file: string, format: ImportFormat, databaseUrl: string, live: boolean): Promise<void> {
  process.env.DATABASE_URL = databaseUrl;
  const project = await createProject({ slug: `bench-${format}`, name: `Bench ${format}` });
  const baseRssMb = process.memoryUsage().rss / 2 ** 20;
  // Read as the server reads an upload too large to keep in memory: from its file, a chunk at a time.
  const source = fileSource(file, statSync(file).size);
  let peakHeap = 0;
  const collect = (globalThis as { gc?: () => void }).gc;
  if (live && !collect) throw new Error("--live needs the child to run with --expose-gc");
  const held = () => {
    collect!();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const liveBase = live ? held() : 0;
  let peakLive = 0;
  const sample = () => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  // Collecting at each batch, not on the timer: a collection every 20 ms would be most of the run.
  const onBatch = () => {
    sample();
    if (live) peakLive = Math.max(peakLive, held() - liveBase);
  };
  const timer = setInterval(sample, 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await importTranscriptFile(project.id, source, { format, requester: "bench", onProgress: onBatch });
  onBatch();
  const endToEndMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  sample();
  clearInterval(timer);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const postgresCpuMs = await backendCpuMs(databaseUrl);
  await disconnectDb();

  // The phases alone, on the same bytes held whole (warm: the import above ran them once already).
  // CPU time, not wall: the phases are pure computation, and CPU time holds on a busy machine.
  const bytes: Uint8Array = readFileSync(file);
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
    peakLiveMb: live ? peakLive / 2 ** 20 : null,
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
  const [mode, file, format, url, flag] = process.argv.slice(2);
  if (mode === "child") return child(file!, format as ImportFormat, url!, flag === "--live");
  const live = process.argv.includes("--live");
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
      const args = live
        ? ["--expose-gc", process.argv[1]!, "child", path, format, database.url, "--live"]
        : [process.argv[1]!, "child", path, format, database.url];
      const run = spawnSync(process.execPath, [...process.execArgv, ...args], {
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
    `  peak RSS ${fmt(r.peakRssMb, 0)} MB (${fmt(r.baseRssMb, 0)} MB before the import: ${fmt((r.peakRssMb - r.baseRssMb) / mb)}x the file), peak heap sampled ${fmt(r.peakHeapMb, 0)} MB`,
  );
  if (r.peakLiveMb !== null)
    console.log(`  held at most ${fmt(r.peakLiveMb, 0)} MB above the start (heap and buffers after collection, at each batch)`);
}

runMain(main);
