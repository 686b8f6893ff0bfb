/**
 * `npm run fuzz -- --requests 20000 [--seed N] [--concurrency 8]`: the full fuzz run. Every route
 * file under app/ is called in process with generated hostile requests against a throwaway
 * database (created on the local Postgres, or the server of TEST_DATABASE_URL, and dropped after);
 * prints the counts by status and by route, and every 5xx found. Exits 1 when any response was a
 * 5xx or the server no longer serves afterwards.
 */
import "./next-runtime";
import { disconnectDb } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { runMain } from "@/lib/runner/run-main";
import { callRoute, type RouteHandler } from "./call";
import { formatReport, loadRoutes, makeFixture, runFuzz } from "./fuzz";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

runMain(async () => {
  const requests = option("requests", 20_000);
  const seed = option("seed", Date.now() % 1_000_000);
  const concurrency = option("concurrency", 8);
  const database = await createTestDatabase("fuzz");
  process.env.DATABASE_URL = database.url;
  process.env.CUSTODIAN_DATABASE_MODE = "postgres";
  let failed = false;
  try {
    const routes = await loadRoutes();
    const fixture = await makeFixture();
    const started = Date.now();
    let reported = 0;
    console.log(`fuzz: ${requests} requests, seed ${seed}, ${concurrency} at a time, ${routes.length} route files`);
    const report = await runFuzz({
      requests,
      seed,
      concurrency,
      routes,
      fixture,
      onProgress: (done) => {
        if (Math.floor(done / 2000) > Math.floor(reported / 2000))
          console.log(`  ${done} requests (${Math.round((Date.now() - started) / 1000)} s)`);
        reported = done;
      },
    });
    console.log(formatReport(report));
    const health = routes.find((r) => r.pattern === "/api/v1/health")?.handlers.GET as RouteHandler;
    const alive = (await callRoute(health, { method: "GET" })).status;
    console.log(`\nafter the run: health answers ${alive}; ${Math.round((Date.now() - started) / 1000)} s in all`);
    failed = report.serverErrors > 0 || alive !== 200;
  } finally {
    await disconnectDb();
    await database.drop();
  }
  if (failed) process.exit(1);
});
