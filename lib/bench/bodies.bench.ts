/**
 * `npm run bench:bodies`: what one huge record costs the server that imports it, and what a large
 * original costs the reader who asks for it back, measured on `next start` over HTTP.
 *
 * 1. A Claude Code transcript with one record of BENCH_BODIES_MIB MiB (default 200) between ordinary
 *    ones is POSTed to /api/v1/imports (a background job, as every file over 2 MiB). While the file
 *    uploads and the job runs, GET /api/v1/health is asked again and again, one request after the
 *    other: the worst latency says how long the server's event loop was held. Reported with the
 *    server's peak RSS and the import's accounting (the record is skipped, named, counted).
 * 2. An original stored before the cap (made in SQL at the same size, as an upgraded database may
 *    hold) is read back whole with GET /api/v1/spans/{id}/original, and one 64 KiB range of it, with
 *    the same health polling: time to the first byte, to the last, and the worst health latency.
 *
 * 3. Hostile OTLP/HTTP bodies POSTed to /api/otlp/v1/traces, with the same polling: a trace of
 *    BENCH_BODIES_CHAIN (default 10,000) chat spans each the parent of the next (4.4 MB), and a gzip
 *    body of a few hundred KB inflating to 250 MB; then the same chain as a file through
 *    /api/v1/imports.
 *
 * The target is health within 1 s throughout; timing decides nothing in the tests (they assert the
 * structure: the record is never decoded or parsed, the original never read whole).
 */
import { appendFileSync, createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { env } from "@/lib/core/env";
import { disconnectDb, rawQuery } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { createApiKey, createProject } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";
import { chainedChatRequest, inflatingRequest } from "@/lib/fuzz/hostile-otlp";
import { type RunningServer, startServer } from "./measure";

const MIB = 1024 * 1024;
const SESSION = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";

/** The real session, then one user record of `mib` MiB of text, then the real session's first line again. */
function writeTranscript(file: string, mib: number): void {
  const real = readFileSync("lib/importers/fixtures/claude-code/spotter-tool-heavy.jsonl");
  writeFileSync(file, real);
  appendFileSync(
    file,
    `{"type":"user","sessionId":"${SESSION}","uuid":"bench-large","timestamp":"2099-01-01T00:00:00.000Z","message":{"role":"user","content":"`,
  );
  const block = Buffer.alloc(MIB, "x");
  for (let i = 0; i < mib; i++) appendFileSync(file, block);
  appendFileSync(file, '"}}\n');
}

/** Asks for health one request after another until stopped; the worst latency and the count. */
function pollHealth(base: string) {
  let worst = 0;
  let count = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/health`);
      await response.arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
      count++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { worstMs: worst, requests: count };
    },
  };
}

/** Resident memory of a process, in MiB (Linux). */
function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function peakRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMib(pid));
    } catch {
      // the process ended
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

const ms = (n: number) => `${Math.round(n).toLocaleString("en")} ms`;

async function importLargeRecord(server: RunningServer, key: string, file: string) {
  const health = pollHealth(server.base);
  const rss = peakRss(server.pid);
  const started = performance.now();
  const posted = await fetch(`${server.base}/api/v1/imports?format=claude-code`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-length": String(statSync(file).size) },
    body: createReadStream(file) as unknown as BodyInit,
    duplex: "half",
  } as RequestInit);
  const { job } = (await posted.json()) as { job?: { id: string } };
  if (posted.status !== 202 || !job) throw new Error(`import: HTTP ${posted.status}`);
  let state: { status: string; outcome?: { records: unknown; issues: Array<{ line: number; message: string }> } };
  for (;;) {
    const polled = await fetch(`${server.base}/api/v1/imports/${job.id}`, { headers: { authorization: `Bearer ${key}` } });
    state = (await polled.json()) as typeof state;
    if (state.status === "DONE" || state.status === "FAILED") break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const elapsed = performance.now() - started;
  const { worstMs, requests } = await health.stop();
  console.log(`import of a file with one ${env().BENCH_BODIES_MIB ?? 200} MiB record: ${state.status} in ${ms(elapsed)}`);
  console.log(`  health: worst ${ms(worstMs)} over ${requests} requests (target: under 1,000 ms)`);
  console.log(`  server peak RSS ${Math.round(rss())} MiB`);
  console.log(`  records ${JSON.stringify(state.outcome?.records)}`);
  for (const issue of state.outcome?.issues.filter((i) => i.message.startsWith("over the size limit")) ?? [])
    console.log(`  line ${issue.line}: ${issue.message}`);
}

/** An original of `mib` MiB as a database from before the cap may hold one, and its span's id. */
async function legacyOriginal(projectId: string, mib: number): Promise<string> {
  const [span] = await rawQuery<{ session_id: string; id: string }>(
    `select s.session_id::text, s.id::text from span s join session x on x.id = s.session_id
      where x.project_id = $1 order by s.seq limit 1`,
    [projectId],
  );
  if (!span) throw new Error("no span to make large");
  // Text that compresses poorly, as real transcripts' large outputs do: hex of a byte sequence.
  await rawQuery(
    `update span_original set bytes = convert_to(
        (select string_agg(md5(g::text), '') from generate_series(1, $3::int * 1024 * 1024 / 32) g), 'UTF8')
      where session_id = $1::uuid and span_id = $2::uuid`,
    [span.session_id, span.id, mib],
  );
  await rawQuery(
    `update span s set sha256 = encode(sha256(o.bytes), 'hex'), byte_length = octet_length(o.bytes)
       from span_original o where o.session_id = s.session_id and o.span_id = s.id and s.id = $1::uuid`,
    [span.id],
  );
  return span.id;
}

async function readBack(server: RunningServer, key: string, spanId: string, range?: string) {
  const health = pollHealth(server.base);
  const started = performance.now();
  const response = await fetch(`${server.base}/api/v1/spans/${spanId}/original`, {
    headers: { authorization: `Bearer ${key}`, ...(range ? { range } : {}) },
  });
  let firstByte = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    firstByte ||= performance.now() - started;
    bytes += chunk.byteLength;
  }
  const total = performance.now() - started;
  const { worstMs } = await health.stop();
  console.log(
    `GET original${range ? ` (${range})` : ""}: HTTP ${response.status}, ${bytes.toLocaleString("en")} bytes, first byte ` +
      `${ms(firstByte)}, last ${ms(total)}; health worst ${ms(worstMs)}`,
  );
}

/** One POST of `body` with health polled throughout: status, time, worst health latency. */
async function postWatched(
  server: RunningServer,
  key: string,
  label: string,
  path: string,
  body: Uint8Array,
  headers: Record<string, string>,
) {
  const health = pollHealth(server.base);
  const started = performance.now();
  const response = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: body as unknown as BodyInit,
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  const { worstMs, requests } = await health.stop();
  console.log(`${label}: HTTP ${response.status} in ${ms(elapsed)}; health worst ${ms(worstMs)} over ${requests} requests`);
  if (response.status >= 400) console.log(`  ${text.slice(0, 200)}`);
  return text;
}

async function hostileOtlp(server: RunningServer, key: string) {
  const n = env().BENCH_BODIES_CHAIN ?? 10_000;
  const chain = chainedChatRequest("bench0000000000000000000000000001", n);
  const json = { "content-type": "application/json" };
  await postWatched(
    server,
    key,
    `OTLP chain of ${n.toLocaleString("en")} chat spans (${(chain.byteLength / MIB).toFixed(1)} MiB)`,
    "/api/otlp/v1/traces",
    chain,
    json,
  );
  const bomb = inflatingRequest(250 * 1000 * 1000);
  await postWatched(
    server,
    key,
    `OTLP gzip body of ${Math.round(bomb.byteLength / 1024)} KiB inflating to 250 MB`,
    "/api/otlp/v1/traces",
    bomb,
    {
      ...json,
      "content-encoding": "gzip",
    },
  );
  const importChain = chainedChatRequest("bench0000000000000000000000000002", n);
  const posted = await postWatched(
    server,
    key,
    `the same chain imported as a file`,
    "/api/v1/imports?format=otel-genai",
    importChain,
    json,
  );
  const job = (JSON.parse(posted) as { job?: { id: string } }).job;
  if (!job) return;
  const health = pollHealth(server.base);
  const started = performance.now();
  let status = "";
  while (status !== "DONE" && status !== "FAILED") {
    const polled = await fetch(`${server.base}/api/v1/imports/${job.id}`, { headers: { authorization: `Bearer ${key}` } });
    status = ((await polled.json()) as { status: string }).status;
    await new Promise((r) => setTimeout(r, 200));
  }
  const { worstMs } = await health.stop();
  console.log(`  its job: ${status} in ${ms(performance.now() - started)}; health worst ${ms(worstMs)}`);
}

async function main() {
  const mib = env().BENCH_BODIES_MIB ?? 200;
  await ensureBuilt();
  const database = await createTestDatabase("bench-bodies");
  process.env.DATABASE_URL = database.url;
  const dir = mkdtempSync(join(tmpdir(), "custodian-bench-bodies-"));
  let server: RunningServer | undefined;
  try {
    const project = await createProject({ slug: "bench-bodies", name: "Bench bodies" });
    const key = (await createApiKey(project.id, "bench", "OPERATOR", CLI)).key;
    const file = join(dir, "large-record.jsonl");
    writeTranscript(file, mib);
    server = await startServer(database.url, { CUSTODIAN_RATE_LIMIT_PER_MINUTE: "1000000" });
    await hostileOtlp(server, key);
    await importLargeRecord(server, key, file);
    const spanId = await legacyOriginal(project.id, mib);
    await readBack(server, key, spanId, "bytes=0-65535");
    await readBack(server, key, spanId);
  } finally {
    await server?.stop();
    await disconnectDb();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runMain(main);
