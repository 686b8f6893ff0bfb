/**
 * `npm run bench:questions`: the canned "modified-system-config" question through the use case
 * (askEvidenceQuestion, as the API and the Evidence page call it) on DATABASE_URL loaded by
 * `npm run seed:scale`: over the whole project (target p95 under 300 ms) and over one session
 * (target p95 under 50 ms). Each is measured as a reviewer meets it: asked again with the stored
 * verdicts of every session current, with some sessions written to since, and judged afresh with
 * none stored; and the whole-project question over HTTP through the API (building the app if
 * needed). Then EXPLAIN (ANALYZE, BUFFERS) summaries of the queries a question judged afresh starts
 * with, naming the indexes they use.
 *
 * BENCH_ITERATIONS (default 30), BENCH_WARMUP (default 3), BENCH_PROJECT (default "scale").
 *
 * `npm run bench:questions -- heap`: the peak heap growth of questions over the project's largest
 * session (`/etc/app/` as a path prefix, every span a candidate, and the canned question), judged
 * afresh, against a bound of 256 MiB (run with node --expose-gc for a settled baseline).
 * `-- heap synthetic [spans]` first writes a synthetic project of that many spans (default
 * 1,000,000) and five times as many atoms (questions-synthetic.ts) into DATABASE_URL, named by
 * BENCH_PROJECT (default "scale-synthetic" then).
 */
import { env } from "@/lib/core/env";
import { ensureBuilt } from "@/lib/runner/build";
import { runMain } from "@/lib/runner/run-main";
import { db, disconnectDb } from "@/lib/db/client";
import { buildSyntheticProject } from "./questions-synthetic";
import { createApiKey } from "@/lib/server/admin";
import { CLI } from "@/lib/server/audit";
import {
  askEvidenceQuestion,
  evidenceQueriesToExplain,
  type EvidenceQueryInput,
  type EvidenceQueryResult,
} from "@/lib/server/questions";
import {
  connect,
  measure,
  printExplain,
  printTimings,
  requireDatabaseUrl,
  scaleTargets,
  startServer,
  type Timing,
} from "./measure";

const ITERATIONS = env().BENCH_ITERATIONS ?? 30;
const WARMUP = env().BENCH_WARMUP ?? 3;

function describe(result: EvidenceQueryResult): string {
  return (
    `${result.answer}: ${result.citations.length} citations, ${result.blockers.length} blockers, ` +
    `${result.gaps.length} seq gaps, ${result.checkedSpans.toLocaleString("en")} spans checked in ${result.sessionsInScope} sessions`
  );
}

/** Sessions that a question's stored verdicts are stale for, as if written to since it was asked. */
const CHANGED_SESSIONS = 10;

async function main() {
  const url = requireDatabaseUrl();
  const targets = await scaleTargets();
  const question = { canned: "modified-system-config" };
  const project: EvidenceQueryInput = { projectId: targets.projectId, question };
  const typical: EvidenceQueryInput = { ...project, scope: { sessionIds: [targets.typical.id] } };
  const forget = () => db().questionVerdict.deleteMany({ where: { session: { projectId: targets.projectId } } });
  const touch = () => db().$executeRaw`
    update session set evidence_version = evidence_version + 1
     where id in (select id from session where project_id = ${targets.projectId}::uuid order by random() limit ${CHANGED_SESSIONS})`;
  const cases: Array<{ label: string; input: EvidenceQueryInput; target?: number; before?: () => Promise<unknown> }> = [
    { label: "whole project, stored verdicts current", input: project, target: 300 },
    { label: `whole project, ${CHANGED_SESSIONS} sessions written since`, input: project, target: 300, before: touch },
    { label: "whole project, judged afresh (no stored verdicts)", input: project, before: forget },
    { label: `one session (median, ${targets.typical.spans} spans), stored verdict current`, input: typical, target: 50 },
    { label: `one session (median, ${targets.typical.spans} spans), judged afresh`, input: typical, target: 50, before: forget },
    {
      label: `one session (longest, ${targets.big.spans.toLocaleString("en")} spans), judged afresh`,
      input: { ...project, scope: { sessionIds: [targets.big.id] } },
      before: forget,
    },
    {
      label: "whole project, last 90 days (a time range: always judged afresh)",
      input: { ...project, scope: { from: new Date(Date.now() - 90 * 86_400_000) } },
    },
  ];
  console.log(
    `"Did we modify system config?" over project "${targets.slug}" (${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans)`,
  );
  const timings: Timing[] = [];
  for (const c of cases) {
    await c.before?.();
    const result = await askEvidenceQuestion(c.input);
    console.log(`  ${c.label}: ${describe(result)}`);
    timings.push(
      await measure(c.label, () => askEvidenceQuestion(c.input), {
        iterations: ITERATIONS,
        warmup: WARMUP,
        ...(c.target ? { target: c.target } : {}),
        ...(c.before ? { before: c.before } : {}),
      }),
    );
  }
  timings.push(...(await overHttp(url, targets.projectId, targets.sessions, forget)));
  console.log(`\n${ITERATIONS} sequential runs each after ${WARMUP} warm-up runs:`);
  printTimings(timings);

  const client = await connect(url);
  try {
    for (const c of [project, typical]) {
      console.log(
        `\nQuery plans of a question judged afresh, ${c === project ? "whole project" : "one session"} (EXPLAIN ANALYZE, BUFFERS):`,
      );
      for (const q of await evidenceQueriesToExplain(c)) await printExplain(client, q.label, q.sql);
    }
  } finally {
    await client.end();
  }
}

/**
 * The whole-project question as a runtime or a script asks it: POST /api/v1/evidence/query on
 * `next start`, with a viewer key made for the run and deleted after it, the response read whole;
 * with the stored verdicts current, and judged afresh (the server keeps the verdicts after it has
 * answered: each run waits for them to land before forgetting them again).
 */
async function overHttp(url: string, projectId: string, sessions: number, forget: () => Promise<unknown>): Promise<Timing[]> {
  await ensureBuilt();
  const key = await createApiKey(projectId, "bench:questions", "VIEWER", CLI);
  const server = await startServer(url);
  try {
    const ask = async () => {
      const response = await fetch(`${server.base}/api/v1/evidence/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: JSON.stringify({ question: { canned: "modified-system-config" }, scope: {} }),
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`evidence query: HTTP ${response.status} ${body.slice(0, 200)}`);
      return body.length;
    };
    const kept = async () => {
      for (let waited = 0; waited < 30_000; waited += 100) {
        if ((await db().questionVerdict.count({ where: { session: { projectId } } })) >= sessions) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the server did not keep the verdicts within 30 s");
    };
    console.log(
      `  whole project over HTTP: ${((await ask()) / 1e6).toFixed(2)} MB per answer (the first 1,000 of each list, and their counts)`,
    );
    const options = { iterations: ITERATIONS, warmup: WARMUP };
    return [
      await measure("POST /api/v1/evidence/query, whole project, verdicts current", ask, {
        ...options,
        target: 300,
        before: kept,
      }),
      await measure("POST /api/v1/evidence/query, whole project, judged afresh", ask, {
        ...options,
        before: () => kept().then(forget),
      }),
    ];
  } finally {
    await server.stop();
    await db().apiKey.delete({ where: { id: key.id } });
  }
}

/** The bound on an evidence question's heap growth, in MiB. */
const HEAP_BOUND_MIB = 256;

/** Peak heap growth while `work` runs, sampled every few milliseconds, from a baseline after a GC. */
async function peakHeapGrowth<T>(work: () => Promise<T>): Promise<{ result: T; peakMiB: number; ms: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { result, peakMiB: (peak - base) / 2 ** 20, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

async function heap(args: string[]) {
  requireDatabaseUrl();
  const synthetic = args[0] === "synthetic";
  const slug = env().BENCH_PROJECT ?? (synthetic ? "scale-synthetic" : "scale");
  if (synthetic) {
    const spans = Number(args[1] ?? 1_000_000);
    console.log(`Writing synthetic project "${slug}" (${spans.toLocaleString("en")} spans) unless it is there`);
    await buildSyntheticProject(slug, spans);
  }
  const targets = await scaleTargets(slug);
  const [atoms] = await db().$queryRaw<Array<{ n: number }>>`
    select count(*)::int as n from evidence_atom where session_id = ${targets.big.id}::uuid`;
  const forget = () => db().questionVerdict.deleteMany({ where: { session: { projectId: targets.projectId } } });
  const scope = { sessionIds: [targets.big.id] };
  const cases: Array<{ label: string; input: EvidenceQueryInput }> = [
    {
      label: "path prefix /etc/app/",
      input: { projectId: targets.projectId, question: { predicate: { valuePrefixes: ["/etc/app/"] } }, scope },
    },
    {
      label: "modified-system-config",
      input: { projectId: targets.projectId, question: { canned: "modified-system-config" }, scope },
    },
  ];
  console.log(
    `Peak heap growth of a question judged afresh over the longest session of "${slug}" ` +
      `(${targets.big.spans.toLocaleString("en")} spans, ${atoms!.n.toLocaleString("en")} atoms)` +
      ((globalThis as { gc?: () => void }).gc ? "" : " [no --expose-gc: the baseline is not settled]"),
  );
  let over = false;
  for (const c of cases) {
    await forget();
    const { result, peakMiB, ms } = await peakHeapGrowth(() => askEvidenceQuestion(c.input));
    over ||= peakMiB >= HEAP_BOUND_MIB;
    console.log(
      `  ${c.label}: ${result.answer}, ${result.citationCount.toLocaleString("en")} citations (${result.citations.length.toLocaleString("en")} kept), ` +
        `${result.blockerCount.toLocaleString("en")} blockers; peak heap growth ${peakMiB.toFixed(1)} MiB ` +
        `(bound ${HEAP_BOUND_MIB} MiB), ${(ms / 1000).toFixed(1)} s`,
    );
  }
  if (over) throw new Error(`a question's heap grew past ${HEAP_BOUND_MIB} MiB`);
}

runMain(async () => {
  try {
    if (process.argv[2] === "heap") await heap(process.argv.slice(3));
    else await main();
  } finally {
    await disconnectDb();
  }
});
