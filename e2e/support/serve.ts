/**
 * The e2e web server: a fresh database for this run, migrated and loaded with the demo through the
 * real ingest and gate, then the production build served on it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import pg from "pg";
import { applyMigrations } from "@/lib/db/migrations";
import { disconnectDb } from "@/lib/db/client";
import { loadDemoIfEmpty } from "@/lib/demo/load";
import { e2eDatabase } from "./e2e-database";

async function main() {
  const { server, name, url } = e2eDatabase();
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  await applyMigrations(url);
  process.env.DATABASE_URL = url;
  await loadDemoIfEmpty();
  await disconnectDb();

  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, "start", "-p", process.env.E2E_PORT!, "-H", "127.0.0.1"], {
    stdio: "inherit",
    env: {
      ...process.env,
      DATABASE_URL: url,
      CUSTODIAN_DATABASE_MODE: "postgres",
      NEXT_TELEMETRY_DISABLED: "1",
      BETTER_AUTH_SECRET: "e2e-only-secret-0123456789abcdef0123456789",
      BETTER_AUTH_URL: `http://127.0.0.1:${process.env.E2E_PORT}`,
    },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
