/**
 * `npm run bench:questions`: the canned "modified-system-config" question through the use case
 * (askEvidenceQuestion, as the API and the Evidence page call it) on DATABASE_URL loaded by
 * `npm run seed:scale`: over the whole project (target p95 under 300 ms) and over one session
 * (target p95 under 50 ms), then EXPLAIN (ANALYZE, BUFFERS) summaries of the queries it starts
 * with, naming the indexes they use.
 *
 * BENCH_ITERATIONS (default 30), BENCH_WARMUP (default 3), BENCH_PROJECT (default "scale").
 */
import { runMain } from "@/lib/cli/run-main";
import { disconnectDb } from "@/lib/db/client";
import { askEvidenceQuestion, evidenceQueriesToExplain, type EvidenceQueryInput, type EvidenceQueryResult } from "../evidence";
import { connect, measure, printExplain, printTimings, requireDatabaseUrl, scaleTargets, type Timing } from "./measure";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

function describe(result: EvidenceQueryResult): string {
  return (
    `${result.answer}: ${result.citations.length} citations, ${result.blockers.length} blockers, ` +
    `${result.gaps.length} seq gaps, ${result.checkedSpans.toLocaleString("en")} spans checked in ${result.sessionsInScope} sessions`
  );
}

async function main() {
  const url = requireDatabaseUrl();
  const targets = await scaleTargets();
  const question = { canned: "modified-system-config" };
  const cases: Array<{ label: string; input: EvidenceQueryInput; target?: number }> = [
    { label: "whole project", input: { projectId: targets.projectId, question }, target: 300 },
    { label: `one session (median, ${targets.typical.spans} spans)`, input: { projectId: targets.projectId, question, scope: { sessionIds: [targets.typical.id] } }, target: 50 },
    { label: `one session (longest, ${targets.big.spans.toLocaleString("en")} spans)`, input: { projectId: targets.projectId, question, scope: { sessionIds: [targets.big.id] } } },
    {
      label: "whole project, last 90 days",
      input: { projectId: targets.projectId, question, scope: { from: new Date(Date.now() - 90 * 86_400_000) } },
    },
  ];
  console.log(`"Did we modify system config?" over project "${targets.slug}" (${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans)`);
  const timings: Timing[] = [];
  for (const c of cases) {
    const result = await askEvidenceQuestion(c.input);
    console.log(`  ${c.label}: ${describe(result)}`);
    timings.push(await measure(c.label, () => askEvidenceQuestion(c.input), { iterations: ITERATIONS, warmup: WARMUP, ...(c.target ? { target: c.target } : {}) }));
  }
  console.log(`\n${ITERATIONS} sequential runs each after ${WARMUP} warm-up runs:`);
  printTimings(timings);

  const client = await connect(url);
  try {
    for (const c of cases.slice(0, 2)) {
      console.log(`\nQuery plans, ${c.label} (EXPLAIN ANALYZE, BUFFERS):`);
      for (const q of await evidenceQueriesToExplain(c.input)) await printExplain(client, q.label, q.sql);
    }
  } finally {
    await client.end();
  }
}

runMain(async () => {
  try {
    await main();
  } finally {
    await disconnectDb();
  }
});
