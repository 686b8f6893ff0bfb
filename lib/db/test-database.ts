import { env } from "@/lib/core/env";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "./migrations";
import { databaseUrlFor, parseDatabaseUrl } from "./pg-pool";
import { assertReachable } from "./reachability";
import { ensureRole, grantAppRole } from "./roles";

/**
 * A throwaway database for one test run: created on the server of TEST_DATABASE_URL (default: the
 * local Postgres), migrated with the committed migrations as that server's user (the owner), and
 * dropped afterwards. Never the demo's. The tests run as the application's role, as the server
 * does: `url` connects as TEST_APP_ROLE (created on first use, shared by every test database of the
 * server), with the application's rights only; `ownerUrl` is the owner, for what the application
 * may not do.
 */
export interface TestDatabase {
  /** As the application's role. */
  url: string;
  /** As the owner (the test server's user). */
  ownerUrl: string;
  drop(): Promise<void>;
}

const DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

/** The application's role in test databases (a login role: the test server trusts local connections). */
export const TEST_APP_ROLE = "custodian_test_app";

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const server = parseDatabaseUrl(env().TEST_DATABASE_URL ?? DEFAULT_SERVER);
  await assertReachable(databaseUrlFor(server));
  const name = `custodian_${label}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client(server);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    await ensureRole(admin, TEST_APP_ROLE, { login: true });
  } finally {
    await admin.end();
  }
  const ownerUrl = databaseUrlFor({ ...server, database: name });
  await applyMigrations(ownerUrl);
  const owner = new pg.Client({ ...server, database: name });
  await owner.connect();
  try {
    await grantAppRole(owner, TEST_APP_ROLE, name);
    // Tests that damage data behind the triggers' backs (as storage damage would) switch them off
    // for their transaction; only the test role may, and its rights on the audit log are unchanged.
    await owner.query(`GRANT SET ON PARAMETER session_replication_role TO ${TEST_APP_ROLE}`);
  } finally {
    await owner.end();
  }
  return {
    url: databaseUrlFor({ ...server, user: TEST_APP_ROLE, password: undefined, database: name }),
    ownerUrl,
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
