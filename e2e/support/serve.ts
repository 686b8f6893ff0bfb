/**
 * The e2e web server: the production build (made first when a source changed since the last one), a
 * fresh database for this run, migrated by its owner, loaded with the demo through the real ingest and
 * gate, then the build served on it as the application's role (as every other server runs: INSERT and
 * SELECT only on the audit log), not as the owner.
 */
import pg from "pg";
import { applyMigrations } from "@/lib/db/migrations";
import { disconnectDb } from "@/lib/db/client";
import { loadDemoIfEmpty } from "@/lib/demo/load";
import { databaseUrlFor } from "@/lib/db/pg-pool";
import { ensureBuilt } from "@/lib/runner/build";
import { spawnServer } from "@/lib/runner/server-process";
import { ensureRole, grantAppRole } from "@/lib/db/roles";
import { TEST_APP_ROLE } from "@/lib/db/test-database";
import { e2eDatabase } from "./e2e-database";
import { E2E_TRUSTED_PROXY } from "./addresses";

async function main() {
  // `next start` serves whatever .next holds: a stale build would test yesterday's pages.
  await ensureBuilt();
  const { server, name, url } = e2eDatabase();
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await ensureRole(admin, TEST_APP_ROLE, { login: true });
  await admin.end();
  await applyMigrations(url);
  const owner = new pg.Client({ ...server, database: name });
  await owner.connect();
  await grantAppRole(owner, TEST_APP_ROLE, name);
  await owner.end();
  const appUrl = databaseUrlFor({ ...server, user: TEST_APP_ROLE, password: undefined, database: name });
  process.env.DATABASE_URL = appUrl;
  await loadDemoIfEmpty();
  await disconnectDb();

  // The server `npm start` runs, with one trusted proxy: requests sent from that loopback address
  // stand for a proxy's (e2e/client-address.spec.ts).
  const child = spawnServer({
    dev: false,
    port: process.env.E2E_PORT!,
    host: "127.0.0.1",
    environment: {
      CUSTODIAN_TRUSTED_PROXIES: E2E_TRUSTED_PROXY,
      DATABASE_URL: appUrl,
      MIGRATION_DATABASE_URL: url,
      CUSTODIAN_DATABASE_MODE: "postgres",
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
