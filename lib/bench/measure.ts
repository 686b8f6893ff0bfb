/**
 * Shared by the page and question benchmarks: timing samples, percentiles, EXPLAIN summaries, the
 * scale project, and a production server to measure over HTTP.
 */
import { env } from "@/lib/core/env";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import pg from "pg";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { APP_PLANNER_OPTIONS, parseDatabaseUrl, sessionOptions } from "@/lib/db/pg-pool";
import { StartupError } from "@/lib/db/startup-error";
import { SERVER_NODE_FLAGS } from "@/lib/runner/server-process";
import type { CpuMeter } from "./cpu";

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]!;
}

export interface Timing {
  label: string;
  samples: number[];
  p50: number;
  p95: number;
  max: number;
  /** The target for p95, in ms. */
  target?: number;
  /** Mean CPU per run, in ms, where it was read: the server's, and the database's (null: not readable). */
  cpu?: { server: number; db: number | null };
}

/**
 * Runs `fn` `warmup` times untimed, then `iterations` times timed, one after another; `before`
 * runs untimed ahead of every run.
 */
export async function measure(
  label: string,
  fn: () => Promise<unknown>,
  options: { iterations: number; warmup: number; target?: number; before?: () => Promise<unknown>; cpu?: CpuMeter },
): Promise<Timing> {
  for (let i = 0; i < options.warmup; i++) {
    await options.before?.();
    await fn();
  }
  const samples: number[] = [];
  const cpu = { server: 0, db: 0 as number | null };
  for (let i = 0; i < options.iterations; i++) {
    await options.before?.();
    const first = await options.cpu?.snapshot();
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    if (first && options.cpu) {
      const spent = options.cpu.spent(first, await options.cpu.snapshot());
      cpu.server += spent.server;
      cpu.db = cpu.db === null || spent.db === null ? null : cpu.db + spent.db;
    }
  }
  const timing = timingOf(label, samples, options.target);
  if (options.cpu && options.iterations > 0)
    timing.cpu = { server: cpu.server / options.iterations, db: cpu.db === null ? null : cpu.db / options.iterations };
  return timing;
}

/** Percentiles of samples taken some other way. */
export function timingOf(label: string, samples: number[], target?: number): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    label,
    samples,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? 0,
    ...(target ? { target } : {}),
  };
}

export function printTimings(timings: Timing[]): void {
  const width = Math.max(...timings.map((t) => t.label.length));
  for (const t of timings) {
    const verdict =
      t.target === undefined
        ? ""
        : t.p95 < t.target
          ? `  (target p95 < ${t.target} ms: met)`
          : `  (target p95 < ${t.target} ms: MISSED)`;
    const cpu = t.cpu
      ? `   cpu/run: server ${t.cpu.server.toFixed(0).padStart(4)} ms, database ${t.cpu.db === null ? "n/a" : `${t.cpu.db.toFixed(0).padStart(4)} ms`}`
      : "";
    console.log(
      `  ${t.label.padEnd(width)}  p50 ${t.p50.toFixed(1).padStart(7)} ms   p95 ${t.p95.toFixed(1).padStart(7)} ms   max ${t.max.toFixed(1).padStart(7)} ms${cpu}${verdict}`,
    );
  }
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  "Heap Fetches"?: number;
  "Rows Removed by Filter"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/** EXPLAIN (ANALYZE, BUFFERS) of a query, as one line per plan node that reads a table or an index. */
export async function explain(
  client: pg.ClientBase,
  sql: Prisma.Sql,
): Promise<{ lines: string[]; indexes: string[]; seqScans: string[]; wholeTableScans: string[]; ms: number }> {
  const result = await client.query<{ "QUERY PLAN": Array<{ Plan: PlanNode; "Execution Time": number }> }>(
    `explain (analyze, buffers, format json) ${sql.text}`,
    sql.values as unknown[],
  );
  const top = result.rows[0]!["QUERY PLAN"][0]!;
  const lines: string[] = [];
  const indexes = new Set<string>();
  const seqScans = new Set<string>();
  // A sequential scan that keeps every row it reads (a project that is the whole table) reads no
  // row an index would have skipped: it is reported, not flagged.
  const wholeTableScans = new Set<string>();
  const walk = (node: PlanNode, depth: number) => {
    const reads = node["Relation Name"] || node["Index Name"];
    if (reads || depth === 0) {
      const rows = (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1);
      const parts = [
        node["Node Type"],
        node["Index Name"] ? `using ${node["Index Name"]}` : "",
        node["Relation Name"] ? `on ${node["Relation Name"]}` : "",
        `rows=${rows}`,
        node["Heap Fetches"] !== undefined ? `heap fetches=${node["Heap Fetches"]}` : "",
        node["Rows Removed by Filter"] ? `removed by filter=${node["Rows Removed by Filter"] * (node["Actual Loops"] ?? 1)}` : "",
        `buffers hit=${node["Shared Hit Blocks"] ?? 0} read=${node["Shared Read Blocks"] ?? 0}`,
        `${(node["Actual Total Time"] ?? 0).toFixed(1)} ms`,
      ].filter(Boolean);
      lines.push(`${"  ".repeat(depth)}${parts.join(" ")}`);
    }
    if (node["Index Name"]) indexes.add(node["Index Name"]);
    if (node["Node Type"] === "Seq Scan" && node["Relation Name"])
      (node["Rows Removed by Filter"] ? seqScans : wholeTableScans).add(node["Relation Name"]);
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(top.Plan, 0);
  return {
    lines,
    indexes: [...indexes],
    seqScans: [...seqScans],
    wholeTableScans: [...wholeTableScans],
    ms: top["Execution Time"],
  };
}

export async function printExplain(client: pg.ClientBase, label: string, sql: Prisma.Sql): Promise<void> {
  const plan = await explain(client, sql);
  console.log(
    `  ${label}: ${plan.ms.toFixed(1)} ms; indexes: ${plan.indexes.join(", ") || "none"}${plan.seqScans.length ? `; sequential scans: ${plan.seqScans.join(", ")}` : ""}${plan.wholeTableScans.length ? `; whole-table reads (every row matched): ${plan.wholeTableScans.join(", ")}` : ""}`,
  );
  for (const line of plan.lines) console.log(`      ${line}`);
  // The big tables' lists must be read through an index, whatever the planner's mood.
  for (const table of plan.seqScans.filter((t) => WATCHED_TABLES.includes(t)))
    console.log(`      !! sequential scan of ${table}: this list needs an index`);
}

/** Tables a page must never read whole. */
const WATCHED_TABLES = ["span", "refusal_event", "import_job", "audit_log"];

export function requireDatabaseUrl(): string {
  const url = env().DATABASE_URL;
  if (!url) throw new StartupError("DATABASE_URL is required: point it at the database `npm run seed:scale` loaded");
  return url;
}

export async function connect(url: string): Promise<pg.Client> {
  // Planned as the application's pool plans.
  const client = new pg.Client({ ...parseDatabaseUrl(url), options: sessionOptions(APP_PLANNER_OPTIONS) });
  await client.connect();
  return client;
}

export interface ScaleTargets {
  projectId: string;
  slug: string;
  sessions: number;
  spans: number;
  /** The longest session. */
  big: { id: string; spans: number };
  /** A session of median length. */
  typical: { id: string; spans: number };
}

/** The project `npm run seed:scale` made (by slug, default "scale"), its longest and a median session. */
export async function scaleTargets(slug = env().BENCH_PROJECT ?? "scale"): Promise<ScaleTargets> {
  const project = await db().project.findUnique({ where: { slug } });
  if (!project)
    throw new StartupError(`no project "${slug}" in DATABASE_URL: load one with \`npm run seed:scale\` (or set BENCH_PROJECT)`);
  const sessions = await db().session.findMany({
    where: { projectId: project.id },
    select: { id: true, spanCount: true },
    orderBy: [{ spanCount: "desc" }, { id: "asc" }],
  });
  if (sessions.length === 0) throw new StartupError(`project "${slug}" has no sessions`);
  const big = sessions[0]!;
  const typical = sessions[Math.floor(sessions.length / 2)]!;
  return {
    projectId: project.id,
    slug,
    sessions: sessions.length,
    spans: sessions.reduce((n, s) => n + s.spanCount, 0),
    big: { id: big.id, spans: big.spanCount },
    typical: { id: typical.id, spans: typical.spanCount },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  base: string;
  /** The server's process, for reading what it costs. */
  pid: number;
  stop(): Promise<void>;
}

/** `next start` on the database, on a free port, once its health check answers. Build first. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const server: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        CUSTODIAN_DATABASE_MODE: "postgres",
        NEXT_TELEMETRY_DISABLED: "1",
        BETTER_AUTH_URL: base,
        BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
        // Measure reads only: the scheduled sweeper would delete and re-verify originals mid-run.
        CUSTODIAN_SWEEP_INTERVAL_MINUTES: "0",
        ...env,
      },
    },
  );
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("the server exited before it was ready");
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return { base, pid: server.pid!, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error("the server did not become healthy within 60 s");
}
