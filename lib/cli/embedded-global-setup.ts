import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The embedded database the smoke layer runs on, as the application connects to it. */
    embeddedDatabaseUrl: string;
  }
}

/**
 * The README's first command up to serving: the embedded database in a fresh folder, migrated,
 * restricted to the application's role and loaded with the demo (prepareFirstRun, as `npm start`),
 * served on a loopback port from this process as `npm start` serves it from its own, for the
 * *.embedded.test.ts files.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "custodian-embedded-"));
  process.env.CUSTODIAN_DATA_DIR = path.join(dataDir, "pgdata");
  delete process.env.DATABASE_URL;
  delete process.env.CUSTODIAN_DATABASE_MODE;
  const { prepareFirstRun } = await import("./first-run");
  const { disconnectDb } = await import("@/lib/db/client");
  const { database, demo } = await prepareFirstRun();
  if (database.mode !== "embedded" || !demo) throw new Error("the smoke layer needs the embedded database with the demo");
  await disconnectDb();
  project.provide("embeddedDatabaseUrl", database.url);
  return async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
