/**
 * `npm run bench:ingest`: sustained ingest through the HTTP API into local Postgres (1 KiB spans,
 * batches of 500, classification and atom storage included), then a raw COPY of the same kind of
 * rows into the same tables, and the ratio between the two.
 *
 * BENCH_SECONDS (default 60) and BENCH_CONCURRENCY (default 4) tune the run. It builds the app if
 * needed, runs `next start` on a fresh database, and drops that database at the end.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus } from "node:os";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { ensureBuilt } from "@/lib/cli/build";
import { disconnectDb } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/db/pg-pool";
import { createTestDatabase } from "@/lib/db/test-database";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { expiresAtFor, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { createApiKey } from "../api-keys";
import { sha256Hex } from "../hash";
import { createProject } from "../projects";
import { benchSpan } from "./spans";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const BATCH = 500;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("the server exited before it was ready");
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not become healthy within 60 s");
}

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
        return [{ pid: Number(pid), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ppid: Number(rest[1]), cpu: (Number(rest[11]) + Number(rest[12])) / 100 }];
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function main() {
  await ensureBuilt();
  const database = await createTestDatabase("bench");
  process.env.DATABASE_URL = database.url;
  let server: ChildProcess | undefined;
  try {
    const project = await createProject({ slug: "bench", name: "Bench" });
    const key = (await createApiKey(project.id, "bench")).key;
    await disconnectDb();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
    server = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DATABASE_URL: database.url, CUSTODIAN_DATABASE_MODE: "postgres", NEXT_TELEMETRY_DISABLED: "1", CUSTODIAN_RATE_LIMIT_PER_MINUTE: "1000000" },
    });
    await waitForHealth(base, server);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

    console.log(`Ingest through the API: ${SECONDS} s, ${CONCURRENCY} concurrent clients, batches of ${BATCH} spans of ~1 KiB`);
    const latencies: number[] = [];
    let spans = 0;
    let bytes = 0;
    const end = Date.now() + SECONDS * 1000;
    const cpuBefore = cpuSeconds(server.pid!);
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
    const cpuAfter = cpuSeconds(server.pid!);
    const apiRate = spans / seconds;
    latencies.sort((a, b) => a - b);
    console.log(`  ${spans} spans (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s: ${apiRate.toFixed(0)} spans/s`);
    console.log(`  batch latency p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms`);
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
    console.log(`API / COPY: ${(apiRate / copyRate).toFixed(2)} (the API also parses, classifies, extracts atoms and checks idempotency)`);
  } finally {
    server?.kill("SIGTERM");
    await disconnectDb();
    await database.drop();
  }
}

/** COPY-escapes a text value (tab-separated text format). */
function copyText(value: string | null): string {
  if (value === null) return "\\N";
  return value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

async function copyRows(client: pg.Client, sql: string, rows: string[]): Promise<void> {
  const stream = client.query(copyFrom(sql));
  await new Promise<void>((resolve, reject) => {
    stream.on("finish", () => resolve());
    stream.on("error", reject);
    const chunk = 5_000;
    let i = 0;
    const write = () => {
      while (i < rows.length) {
        const ok = stream.write(rows.slice(i, i + chunk).join(""));
        i += chunk;
        if (!ok) return void stream.once("drain", write);
      }
      stream.end();
    };
    write();
  });
}

/** Prepares rows as ingest would (analysis done beforehand, untimed), then times only the COPY. */
async function timeCopy(url: string, projectId: string, count: number): Promise<number> {
  const client = new pg.Client(parseDatabaseUrl(url));
  await client.connect();
  try {
    const sessionId = randomUUID();
    await client.query(`insert into session (id, project_id, external_id, runtime) values ($1, $2, $3, 'bench')`, [sessionId, projectId, `copy-${sessionId}`]);
    const spanRows: string[] = [];
    const originalRows: string[] = [];
    const atomRows: string[] = [];
    for (let seq = 0; seq < count; seq++) {
      const span = benchSpan(seq);
      const body = new TextEncoder().encode(span.body);
      const analysis = analyzeSpan({ body, kind: span.kind, toolName: span.toolName, toolInput: span.toolInput, cwd: "/home/dev/app" });
      const id = randomUUID();
      const sha = sha256Hex(body);
      const cls = analysis.classification.class;
      const occurred = new Date(span.occurredAt);
      const expires = expiresAtFor(cls, occurred, DEFAULT_POLICY).toISOString();
      // The original's facts go with the span, as ingest writes them.
      spanRows.push(
        [sessionId, id, seq, span.kind, copyText(span.role ?? null), copyText(span.toolName ?? null), copyText(span.toolInput ? JSON.stringify(span.toolInput) : null), occurred.toISOString(), cls, copyText(JSON.stringify(analysis.classification.reasons)), "VERBATIM", "t", body.byteLength, sha, 0, "HELD", expires].join("\t") + "\n",
      );
      originalRows.push([sessionId, id, `\\\\x${Buffer.from(body).toString("hex")}`, sha, expires, "f"].join("\t") + "\n");
      analysis.atoms.forEach((a, ordinal) => {
        atomRows.push([sessionId, id, ordinal, a.kind, copyText(a.text), copyText(a.normalized), a.byteStart, a.byteEnd, a.effect ?? "\\N", a.negated ? "t" : "f", copyText(a.argName ?? null)].join("\t") + "\n");
      });
    }
    const t0 = performance.now();
    const perTable: Array<[table: string, ms: number]> = [];
    const timed = async (table: string, sql: string, rows: string[]) => {
      const start = performance.now();
      await copyRows(client, sql, rows);
      perTable.push([table, performance.now() - start]);
    };
    await client.query("begin");
    await timed("span", "copy span (session_id, id, seq, kind, role, tool_name, tool_input, occurred_at, class, class_reasons, transcript_state, has_pointer, byte_length, sha256, generation, original_state, original_expires_at) from stdin", spanRows);
    await timed("span_original", "copy span_original (session_id, span_id, bytes, sha256, expires_at, pinned) from stdin", originalRows);
    await timed(`evidence_atom (${(atomRows.length / count).toFixed(1)} per span)`, "copy evidence_atom (session_id, span_id, ordinal, kind, text, normalized, byte_start, byte_end, effect, negated, arg_name) from stdin", atomRows);
    await client.query("commit");
    const total = performance.now() - t0;
    // One backend does all of it: its time per span is what Postgres spends of one core per span.
    console.log(`  raw COPY, one Postgres backend's time per span: ${perTable.map(([table, ms]) => `${table} ${((ms * 1000) / count).toFixed(0)} µs`).join(", ")}; with commit ${((total * 1000) / count).toFixed(0)} µs`);
    return count / (total / 1000);
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
