import { env } from "@/lib/core/env";
import { openEmbeddedDatabase } from "./embedded";
import { applyMigrations } from "./migrations";
import { assertReachable } from "./reachability";

export interface PreparedDatabase {
  url: string;
  mode: "embedded" | "postgres";
  /** Stops the embedded database if this process started it. */
  stop(): Promise<void>;
}

/**
 * Resolves the database this process runs on (DATABASE_URL, or the embedded default), checks it
 * answers, applies pending migrations, and exports it to process.env for the Prisma client and
 * child processes.
 */
export async function prepareDatabase(options: { migrate?: boolean } = {}): Promise<PreparedDatabase> {
  const { DATABASE_URL: configured, CUSTODIAN_DATABASE_MODE: mode } = env();
  let prepared: PreparedDatabase;
  if (configured && mode !== "embedded") {
    const url = configured;
    await assertReachable(url);
    prepared = { url, mode: "postgres", stop: async () => {} };
  } else {
    const embedded = await openEmbeddedDatabase();
    prepared = { url: embedded.url, mode: "embedded", stop: () => embedded.stop() };
  }
  try {
    if (options.migrate !== false) await applyMigrations(prepared.url);
  } catch (error) {
    await prepared.stop();
    throw error;
  }
  process.env.DATABASE_URL = prepared.url;
  process.env.CUSTODIAN_DATABASE_MODE = prepared.mode;
  return prepared;
}
