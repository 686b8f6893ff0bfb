/**
 * `npm run bench:retention`: the retention what-if (simulateRetention, as POST
 * /api/v1/retention/simulations and the Retention page call it) on DATABASE_URL loaded by
 * `npm run seed:scale`: the current policy, a side-effecting TTL of one day, and every TTL halved
 * with a shorter horizon, over 90 days and over 3,650 (target p95 under 3 s at 1M spans); then
 * EXPLAIN (ANALYZE, BUFFERS) summaries of the what-if's statements for the one-day side-effecting
 * TTL. Stores nothing but the per-session verdicts the question step keeps, as any question does.
 *
 * BENCH_ITERATIONS (default 30), BENCH_WARMUP (default 3), BENCH_PROJECT (default "scale").
 */
import { env } from "@/lib/core/env";
import { runMain } from "@/lib/runner/run-main";
import { disconnectDb } from "@/lib/db/client";
import type { PolicyPatch } from "@/lib/server/retention";
import { simulateRetention, type Simulation, whatIfQueriesToExplain } from "@/lib/server/what-if";
import { connect, measure, printExplain, printTimings, requireDatabaseUrl, scaleTargets, type Timing } from "./measure";

const ITERATIONS = env().BENCH_ITERATIONS ?? 30;
const WARMUP = env().BENCH_WARMUP ?? 3;
const TARGET_MS = 3000;

function describe(s: Simulation): string {
  const deleted = s.proposed.days.reduce((n, d) => n + d.originalsDeleted, 0);
  return (
    `${deleted.toLocaleString("en")} originals deleted, ${s.proposed.questionsAffected.length} answers changed, ` +
    `refusals ${s.refusals.current} -> ${s.refusals.proposed} of ${s.refusals.decisions} decisions`
  );
}

async function main() {
  const url = requireDatabaseUrl();
  const targets = await scaleTargets();
  const cases: Array<{ label: string; patch: PolicyPatch; horizon: number }> = [
    { label: "current policy, 90 days", patch: {}, horizon: 90 },
    { label: "side-effecting TTL 1 day, 90 days", patch: { ttlDays: { SIDE_EFFECTING: 1 } }, horizon: 90 },
    {
      label: "every TTL halved, horizon 200 days, 3,650 days",
      patch: { evidenceHorizonDays: 200, ttlDays: { NARRATIVE: 15, STRUCTURED: 200, SIDE_EFFECTING: 365 } },
      horizon: 3650,
    },
  ];
  console.log(
    `Retention what-if over project "${targets.slug}" (${targets.sessions} sessions, ${targets.spans.toLocaleString("en")} spans)`,
  );
  const timings: Timing[] = [];
  for (const c of cases) {
    const run = () => simulateRetention(targets.projectId, c.patch, c.horizon);
    console.log(`  ${c.label}: ${describe(await run())}`);
    timings.push(await measure(c.label, run, { iterations: ITERATIONS, warmup: WARMUP, target: TARGET_MS }));
  }
  console.log(`\n${ITERATIONS} sequential runs each after ${WARMUP} warm-up runs:`);
  printTimings(timings);

  console.log(`\nQuery plans (EXPLAIN ANALYZE, BUFFERS) for "${cases[1]!.label}":`);
  const client = await connect(url);
  try {
    for (const q of await whatIfQueriesToExplain(targets.projectId, cases[1]!.patch, cases[1]!.horizon)) {
      await printExplain(client, q.label, q.sql);
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
