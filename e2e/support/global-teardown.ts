import { rmSync } from "node:fs";
import pg from "pg";
import { e2eDatabase } from "./e2e-database";

/** Drops the run's database (forcefully: the web server may still hold connections). */
export default async function globalTeardown() {
  const { server, name } = e2eDatabase();
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  // The first command's embedded data (its server has stopped by now).
  if (process.env.E2E_EMBEDDED_DIR) rmSync(process.env.E2E_EMBEDDED_DIR, { recursive: true, force: true });
}
