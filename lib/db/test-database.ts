import { env } from "@/lib/core/env";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "./migrations";
import { databaseUrlFor, parseDatabaseUrl } from "./pg-pool";
import { assertReachable } from "./reachability";

/**
 * A throwaway database for one test run: created on the server of TEST_DATABASE_URL (default: the
 * local Postgres), migrated with the committed migrations, dropped afterwards. Never the demo's.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const server = parseDatabaseUrl(env().TEST_DATABASE_URL ?? DEFAULT_SERVER);
  await assertReachable(databaseUrlFor(server));
  const name = `custodian_${label}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor({ ...server, database: name });
  await applyMigrations(url);
  return {
    url,
    async drop() {
      const client = new pg.Client(server);
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
