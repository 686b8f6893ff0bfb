/**
 * `npm run bench:ingest`: sustained ingest through the HTTP API into local Postgres (1 KiB spans,
 * batches of 500, classification and atom storage included), then a raw COPY of rows built as
 * ingest builds them into the same tables, and the ratio between the two.
 *
 * BENCH_SECONDS (default 60) and BENCH_CONCURRENCY (default 4) tune the run. It builds the app if
 * needed, runs `next start` on a fresh database, and drops that database at the end.
 */
import { env } from "@/lib/core/env";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import pg from "pg";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { disconnectDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { createTestDatabase } from "@/lib/db/test-database";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { createApiKey } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";
import { copyTexts, type BatchRows } from "@/lib/server/ingest";
import { copyLines } from "@/lib/db/copy";
import { sha256Hex } from "@/lib/core/hash";
import { batchRows } from "@/lib/server/ingest";
import { createProject } from "@/lib/server/admin";
import { percentile, startServer, type RunningServer } from "./measure";
import { benchSpan } from "./spans";

const SECONDS = env().BENCH_SECONDS ?? 60;
const CONCURRENCY = env().BENCH_CONCURRENCY ?? 4;
const BATCH = 500;

/**
 * The client must not compete with the server for the two cores: span JSON is serialised once per
 * template and batches are assembled by concatenation, with fresh seqs.
 */
const TEMPLATES = Array.from({ length: 200 }, (_, i) => {
  const { seq: _seq, ...rest } = benchSpan(i);
  return JSON.stringify(rest).slice(1);
});

function batchBody(firstSeq: number, size: number): string {
  const items: string[] = [];
  for (let i = 0; i < size; i++) items.push(`{"seq":${firstSeq + i},${TEMPLATES[(firstSeq + i) % TEMPLATES.length]}`);
  return `{"spans":[${items.join(",")}]}`;
}

/**
 * CPU seconds used so far by the server's process tree and by every Postgres process, from
 * /proc (Linux; null elsewhere): where each span's time goes on this machine's cores.
 */
function cpuSeconds(serverPid: number): { server: number; postgres: number } | null {
  if (!existsSync("/proc/self/stat")) return null;
  const procs = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        // Fields after the command (which may hold spaces) in parentheses.
        const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return [
          {
            pid: Number(pid),
            comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
            ppid: Number(rest[1]),
            cpu: (Number(rest[11]) + Number(rest[12])) / 100,
          },
        ];
      } catch {
        return []; // exited meanwhile
      }
    });
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const tree = new Set<number>();
  const walk = (pid: number) => {
    tree.add(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(serverPid);
  const sum = (keep: (p: (typeof procs)[number]) => boolean) => procs.filter(keep).reduce((n, p) => n + p.cpu, 0);
  return { server: sum((p) => tree.has(p.pid)), postgres: sum((p) => p.comm.startsWith("postgres")) };
}

async function main() {
  await ensureBuilt();
  const database = await createTestDatabase("bench");
  process.env.DATABASE_URL = database.url;
  let server: RunningServer | undefined;
  try {
    const project = await createProject({ slug: "bench", name: "Bench" });
    const key = (await createApiKey(project.id, "bench", "OPERATOR", CLI)).key;
    await disconnectDb();

    server = await startServer(database.url, { CUSTODIAN_RATE_LIMIT_PER_MINUTE: "1000000" });
    const { base } = server;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

    console.log(`Ingest through the API: ${SECONDS} s, ${CONCURRENCY} concurrent clients, batches of ${BATCH} spans of ~1 KiB`);
    const latencies: number[] = [];
    let spans = 0;
    let bytes = 0;
    const end = Date.now() + SECONDS * 1000;
    const cpuBefore = cpuSeconds(server.pid);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        const session = await fetch(`${base}/api/v1/sessions`, {
          method: "POST",
          headers,
          body: JSON.stringify({ externalId: `bench-${worker}`, runtime: "bench", cwd: "/home/dev/app" }),
        }).then((r) => r.json() as Promise<{ id: string }>);
        let seq = 0;
        while (Date.now() < end) {
          const body = batchBody(seq, BATCH);
          seq += BATCH;
          const t0 = performance.now();
          const response = await fetch(`${base}/api/v1/sessions/${session.id}/spans`, { method: "POST", headers, body });
          if (!response.ok) throw new Error(`ingest failed: ${response.status} ${await response.text()}`);
          await response.arrayBuffer();
          latencies.push(performance.now() - t0);
          spans += BATCH;
          bytes += BATCH * 1024;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuSeconds(server.pid);
    const apiRate = spans / seconds;
    latencies.sort((a, b) => a - b);
    console.log(`  ${spans} spans (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s: ${apiRate.toFixed(0)} spans/s`);
    console.log(
      `  batch latency p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms`,
    );
    if (cpuBefore && cpuAfter) {
      const perSpan = (cpu: number) => (cpu * 1e6) / spans;
      const serverUs = perSpan(cpuAfter.server - cpuBefore.server);
      const postgresUs = perSpan(cpuAfter.postgres - cpuBefore.postgres);
      console.log(
        `  CPU per span: server ${serverUs.toFixed(0)} µs, Postgres ${postgresUs.toFixed(0)} µs; ` +
          `${cpus().length} cores at that cost would take at most ${((cpus().length * 1e6) / (serverUs + postgresUs)).toFixed(0)} spans/s`,
      );
    }

    const copyCount = Math.min(spans, 200_000);
    const copyRate = await timeCopy(database.url, project.id, copyCount);
    console.log(`Raw COPY of ${copyCount} prepared spans (span, span_original, evidence_atom): ${copyRate.toFixed(0)} spans/s`);
    console.log(
      `API / COPY: ${(apiRate / copyRate).toFixed(2)} (the API also parses, classifies, extracts atoms and checks idempotency)`,
    );
  } finally {
    await server?.stop();
    await disconnectDb();
    await database.drop();
  }
}

/** Spans per COPY statement: ingest writes 500 per transaction; this keeps each COPY's text well below the longest string. */
const COPY_CHUNK = 5_000;

/**
 * Builds the rows exactly as ingest does (analysis, hashes and COPY text untimed), then times only
 * the COPYs, table by table, in one transaction on one backend.
 */
async function timeCopy(url: string, projectId: string, count: number): Promise<number> {
  const client = new pg.Client(parseDatabaseUrl(url));
  await client.connect();
  try {
    const sessionId = randomUUID();
    await client.query(`insert into session (id, project_id, external_id, runtime) values ($1, $2, $3, 'bench')`, [
      sessionId,
      projectId,
      `copy-${sessionId}`,
    ]);
    const chunks: BatchRows[] = [];
    for (let first = 0; first < count; first += COPY_CHUNK) {
      const hashed = Array.from({ length: Math.min(COPY_CHUNK, count - first) }, (_, i) => {
        const { occurredAt, body, ...span } = benchSpan(first + i);
        const bytes = new TextEncoder().encode(body);
        return { span: { ...span, occurredAt: new Date(occurredAt), body: bytes }, sha256: sha256Hex(bytes) };
      });
      chunks.push(batchRows({ id: sessionId, projectId, cwd: "/home/dev/app" }, DEFAULT_POLICY, hashed, new Date()).rows);
    }
    const atoms = chunks.reduce((n, c) => n + c.atoms.length, 0);
    const texts = chunks.map(copyTexts);
    const t0 = performance.now();
    const perTable: Array<[table: string, ms: number]> = [];
    await client.query("begin");
    for (let t = 0; t < texts[0]!.length; t++) {
      const start = performance.now();
      for (const chunk of texts) await copyLines(client, chunk[t]!.table, chunk[t]!.columns, chunk[t]!.text);
      const table = texts[0]![t]!.table;
      perTable.push([
        table === "evidence_atom" ? `${table} (${(atoms / count).toFixed(1)} per span)` : table,
        performance.now() - start,
      ]);
    }
    await client.query("commit");
    const total = performance.now() - t0;
    // One backend does all of it: its time per span is what Postgres spends of one core per span.
    console.log(
      `  raw COPY, one Postgres backend's time per span: ${perTable.map(([table, ms]) => `${table} ${((ms * 1000) / count).toFixed(0)} µs`).join(", ")}; with commit ${((total * 1000) / count).toFixed(0)} µs`,
    );
    return count / (total / 1000);
  } finally {
    await client.end();
  }
}

runMain(main);
