/**
 * `npm start`: brings Custodian up on DATABASE_URL or, when unset, on the embedded database with
 * demo data, builds the app if its build is missing or stale, and serves it.
 */
import { env } from "@/lib/core/env";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { ensureBuilt } from "@/lib/runner/build";
import { assertPortFree } from "@/lib/runner/port";
import { runMain } from "@/lib/runner/run-main";
import { prepareDatabase } from "@/lib/db/bootstrap";
import { disconnectDb } from "@/lib/db/client";
import { DEMO_PASSWORD, DEMO_USERS, hasDemoUsers, loadDemoIfEmpty } from "@/lib/demo/load";

async function main() {
  const dev = process.argv.includes("--dev");
  const { PORT: port, HOST: host } = env();
  await assertPortFree(port, host);

  const database = await prepareDatabase();
  console.log(`Database: ${database.mode === "embedded" ? "embedded (.custodian/pgdata)" : "postgres"}, migrations applied.`);
  if (database.mode === "embedded" || env().CUSTODIAN_DEMO === "1") {
    const demo = await loadDemoIfEmpty();
    if (demo) console.log(`Loaded the demo project "${demo.projectSlug}": ${demo.sessions} sessions, ${demo.spans} spans.`);
    if (await hasDemoUsers()) {
      console.log(`Demo sign-in: ${DEMO_USERS.map((u) => u.email).join(", ")} (one per role), password "${DEMO_PASSWORD}".`);
    }
  }
  await disconnectDb();

  if (!dev) await ensureBuilt();
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const server = spawn(process.execPath, [nextBin, dev ? "dev" : "start", "-p", String(port), "-H", host], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  console.log(`Custodian: http://${host === "0.0.0.0" ? "localhost" : host}:${port}`);

  const shutdown = async (code: number) => {
    await database.stop();
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.kill(signal);
    });
  }
  server.on("exit", (code) => void shutdown(code ?? 0));
}

runMain(main);
