/**
 * `npm run fuzz -- --requests 20000 [--actions N] [--seed N] [--concurrency 8]`: the full fuzz run.
 * Every route file under app/ is called in process with generated hostile requests, then every
 * server action with hostile forms by callers of every standing (--actions calls, as many as
 * --requests unless given), against a throwaway database (created on the local Postgres, or the
 * server of TEST_DATABASE_URL, and dropped after); prints the counts by status and by route, by
 * outcome and by action, and every finding. Exits 1 when any response was a 5xx, an action would
 * have answered 500, a call that had to be refused was not, a refused call changed data, an
 * exported action has no form to be called with, or the server no longer serves afterwards.
 */
import "./next-runtime";
import { disconnectDb } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/db/test-database";
import { runMain } from "@/lib/runner/run-main";
import { callRoute, type RouteHandler } from "./call";
import { formatActionReport, loadActions, makeActionFixture, runActionFuzz } from "./action-fuzz";
import { formatReport, loadRoutes, makeFixture, runFuzz, seededRng } from "./fuzz";
import { probeForgedAddresses } from "./forged-addresses";
import { probeFullImportQueue } from "./import-queue-probe";
import { FUZZ_TRUSTED_PROXY } from "./request-generators";

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
  const actionCalls = option("actions", requests);
  const database = await createTestDatabase("fuzz");
  process.env.DATABASE_URL = database.url;
  process.env.CUSTODIAN_DATABASE_MODE = "postgres";
  // Connections come from plain clients and from one proxy the server trusts (request-generators.ts).
  process.env.CUSTODIAN_TRUSTED_PROXIES = FUZZ_TRUSTED_PROXY;
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
    const forged = await probeForgedAddresses(routes, seededRng(seed));
    console.log(
      `\nforged client addresses: ${forged.requests} requests, ${forged.serverErrors} responses 5xx; ${forged.findings.length === 0 ? "every flood throttled by its connection, clients behind the trusted proxy apart" : forged.findings.join("\n  ")}`,
    );
    const queue = await probeFullImportQueue(routes, fixture, seededRng(seed));
    console.log(
      `full import queue: ${queue.requests} imports, ${queue.serverErrors} responses 5xx; ${queue.findings.length === 0 ? "every one refused with 429 IMPORT_QUEUE_FULL, nothing written" : queue.findings.join("\n  ")}`,
    );
    const health = routes.find((r) => r.pattern === "/api/v1/health")?.handlers.GET as RouteHandler;
    const alive = (await callRoute(health, { method: "GET" })).status;
    console.log(`\nafter the run: health answers ${alive}; ${Math.round((Date.now() - started) / 1000)} s in all`);
    const actions = await loadActions();
    const actionsStarted = Date.now();
    let called = 0;
    console.log(`\nserver actions: ${actionCalls} calls, seed ${seed}, ${actions.length} actions`);
    const actionReport = await runActionFuzz({
      calls: actionCalls,
      seed,
      concurrency: Math.min(concurrency, 6),
      actions,
      fixture: await makeActionFixture(),
      onProgress: (done) => {
        if (Math.floor(done / 1000) > Math.floor(called / 1000))
          console.log(`  ${done} calls (${Math.round((Date.now() - actionsStarted) / 1000)} s)`);
        called = done;
      },
    });
    console.log(formatActionReport(actionReport));
    const aliveAfterActions = (await callRoute(health, { method: "GET" })).status;
    console.log(
      `\nafter the actions: health answers ${aliveAfterActions}; ${Math.round((Date.now() - started) / 1000)} s in all`,
    );
    failed =
      report.serverErrors > 0 ||
      forged.findings.length > 0 ||
      queue.findings.length > 0 ||
      queue.serverErrors > 0 ||
      forged.serverErrors > 0 ||
      alive !== 200 ||
      aliveAfterActions !== 200 ||
      actionReport.serverErrors > 0 ||
      actionReport.wrongRefusals > 0 ||
      actionReport.changedByRefusal > 0 ||
      actionReport.uncovered.length > 0;
  } finally {
    await disconnectDb();
    await database.drop();
  }
  if (failed) process.exit(1);
});
