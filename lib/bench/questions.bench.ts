/**
 * `npm run bench:questions`: the canned "modified-system-config" question through the use case
 * (askEvidenceQuestion, as the API and the Evidence page call it) on DATABASE_URL loaded by
 * `npm run seed:scale`, phase by phase: in process (questions-cases.ts: whole project, last 90
 * days, one session; afresh, with verdicts current and partly stale; targets p95 under 300 ms for
 * the project and 50 ms for a session), the growth curve (questions-curve.ts), over HTTP
 * (questions-http.ts: afresh and with verdicts current), EXPLAIN (ANALYZE, BUFFERS) summaries of
 * the statements a question judged afresh starts with, and the same on the embedded database at a
 * smaller size (questions-embedded.ts), with the database server's memory settings it ran with. A
 * phase that fails is named with its reason and the others still run; every figure measured is
 * printed at the end, and the run exits non-zero on a failure.
 *
 * BENCH_ITERATIONS (at least 20, the default), BENCH_WARMUP (default 3), BENCH_PROJECT (default
 * "scale"), BENCH_HTTP (next | handler), BENCH_EMBEDDED_SPANS (default 100,000; 0 skips).
 *
 * `npm run bench:questions -- heap`: the peak heap growth of questions over the project's largest
 * session (`/etc/app/` as a path prefix, every span a candidate, and the canned question), judged
 * afresh, against a bound of 256 MiB (run with node --expose-gc for a settled baseline).
 * `-- heap synthetic [spans]` first writes a synthetic project of that many spans (default
 * 1,000,000) and five times as many atoms (questions-synthetic.ts) into DATABASE_URL, named by
 * BENCH_PROJECT (default "scale-synthetic" then).
 *
 * `npm run bench:questions -- answers [now]`: what every canned question and a few predicates
 * answer afresh at `now` (questions-answers.ts), one line each, to diff before and after a change.
 */
import { env } from "@/lib/core/env";
import { runMain } from "@/lib/runner/run-main";
import { db, disconnectDb } from "@/lib/db/client";
import { buildSyntheticProject } from "./questions-synthetic";
import { askEvidenceQuestion, evidenceQueriesToExplain, type EvidenceQueryInput } from "@/lib/server/questions";
import { BenchReport } from "./bench-report";
import { forgetter, questionsInProcess } from "./questions-cases";
import { growthCurve } from "./questions-curve";
import { EMBEDDED_SPANS, questionsEmbedded } from "./questions-embedded";
import { questionsOverHttp } from "./questions-http";
import { printAnswerFingerprints } from "./questions-answers";
import { connect, printExplain, requireDatabaseUrl, scaleTargets } from "./measure";

/** Each case runs at least this many times: fewer make a p95 of one or two samples. */
const MIN_RUNS = 20;

async function main() {
  const url = requireDatabaseUrl();
  const asked = env().BENCH_ITERATIONS;
  const runs = { iterations: Math.max(MIN_RUNS, asked ?? MIN_RUNS), warmup: env().BENCH_WARMUP ?? 3 };
  // A connection of its own, to read the CPU of the database's backends around each run.
  const cpuClient = await connect(url).catch(() => undefined);
  const options = { ...runs, ...(cpuClient ? { cpuClient } : {}) };
  const report = new BenchReport();
  if (asked !== undefined && asked < MIN_RUNS)
    report.note(`BENCH_ITERATIONS=${asked} raised to ${MIN_RUNS}: every case runs at least that often.`);
  try {
    const targets = await scaleTargets();
    const phase = `in process, Postgres, ${targets.spans.toLocaleString("en")} spans`;
    console.log(
      `"Did we modify system config?" over project "${targets.slug}" (${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans)`,
    );
    report.note(await serverSettings());
    const kept = await questionsInProcess(report, phase, targets, options);
    await report.phase(`growth, Postgres`, () => growthCurve(report, "growth, Postgres", targets, options));
    if (kept === undefined) report.fail("over HTTP, Postgres", "the phase", new Error("skipped: no count of kept verdicts"));
    else
      await report.phase("over HTTP, Postgres", () =>
        questionsOverHttp(
          report,
          url,
          { over: "whole project", projectId: targets.projectId, keptVerdicts: kept, forget: forgetter(targets.projectId) },
          options,
        ),
      );
    await report.phase("query plans, Postgres", () => plans(url, targets.projectId, targets.typical.id));
  } catch (error) {
    report.fail("the scale project on DATABASE_URL", "finding it", error);
  }
  await cpuClient?.end();
  // The embedded database runs inside this process: its CPU is the server's.
  await report.phase(`embedded database, ${(env().BENCH_EMBEDDED_SPANS ?? EMBEDDED_SPANS).toLocaleString("en")} spans`, () =>
    questionsEmbedded(report, runs),
  );
  if (!report.print()) process.exitCode = 1;
}

async function plans(url: string, projectId: string, sessionId: string) {
  const project: EvidenceQueryInput = { projectId, question: { canned: "modified-system-config" } };
  const client = await connect(url);
  try {
    for (const c of [project, { ...project, scope: { sessionIds: [sessionId] } }]) {
      console.log(
        `\nQuery plans of a question judged afresh, ${c === project ? "whole project" : "one session"} (EXPLAIN ANALYZE, BUFFERS):`,
      );
      for (const q of await evidenceQueriesToExplain(c)) await printExplain(client, q.label, q.sql);
    }
  } finally {
    await client.end();
  }
}

/** The database server's memory settings the figures were measured with (docs/operations.md). */
async function serverSettings(): Promise<string> {
  const rows = await db().$queryRaw<Array<{ name: string; setting: string }>>`
    select name, current_setting(name) as setting from unnest(array['shared_buffers', 'effective_cache_size', 'work_mem']) as name`;
  return `Database server settings: ${rows.map((r) => `${r.name} ${r.setting}`).join(", ")}.`;
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
    else if (process.argv[2] === "answers") {
      requireDatabaseUrl();
      await printAnswerFingerprints(process.argv[3]);
    } else await main();
  } finally {
    await disconnectDb();
  }
});
