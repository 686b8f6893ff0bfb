import { env } from "@/lib/core/env";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { distribute, registeredWorkers } from "./citus";
import { applyMigrations } from "./migrations";
import { databaseUrlFor, parseDatabaseUrl, type PgConnectionFields } from "./pg-pool";
import { assertReachable } from "./reachability";
import { ensureRole, grantAppRole } from "./roles";

/**
 * Throwaway databases for one test run, on the server of TEST_DATABASE_URL (default: the local
 * Postgres), never the demo's. One is migrated with the committed migrations as that server's user
 * (the owner) and kept as a template; each test worker works in a copy of it (CREATE DATABASE ...
 * TEMPLATE copies files, far faster than migrating again), so workers run side by side without
 * seeing each other's rows. The tests run as the application's role, as the server does: `url`
 * connects as TEST_APP_ROLE (created on first use, shared by every test database of the server),
 * with the application's rights only; `ownerUrl` is the owner, for what the application may not do.
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

export function testServer(): PgConnectionFields {
  return parseDatabaseUrl(env().TEST_DATABASE_URL ?? DEFAULT_SERVER);
}

async function asServer<T>(fn: (admin: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const admin = new pg.Client({ ...testServer(), ...(database ? { database } : {}) });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

function urlsOf(name: string): { url: string; ownerUrl: string } {
  const server = testServer();
  return {
    url: databaseUrlFor({ ...server, user: TEST_APP_ROLE, password: undefined, database: name }),
    ownerUrl: databaseUrlFor({ ...server, database: name }),
  };
}

/**
 * Whether the test server is a Citus coordinator the run distributes its databases on (the Citus
 * layer, `npm run test:citus`: TEST_DATABASE_URL is the coordinator). A database there is migrated
 * and distributed afresh: a copy by TEMPLATE would hold the coordinator's part only.
 */
export function testServerIsCitus(): boolean {
  return process.env.CUSTODIAN_TEST_CITUS === "1";
}

/** Migrates the database `name` (and on a Citus coordinator distributes it), as its owner. */
async function prepareDatabaseSchema(name: string): Promise<void> {
  await applyMigrations(urlsOf(name).ownerUrl);
  if (!testServerIsCitus()) return;
  const server = testServer();
  const workers = await asServer(registeredWorkers);
  await asServer((owner) => distribute(owner, { host: server.host, port: server.port }, { workers }), name);
}

/** Gives the application's role its rights on `name` (CONNECT is the server's, so a copy needs it again). */
async function grantTestRole(name: string): Promise<void> {
  await asServer((owner) => grantAppRole(owner, TEST_APP_ROLE, name), name);
}

/**
 * Tests that damage data behind the triggers' backs (as storage damage would) switch them off for
 * their transaction; only the test role may, and its rights on the audit log are unchanged. The
 * grant is the server's, not a database's: given once a run, and again when another run granting
 * at the same moment makes Postgres refuse one of the two ("tuple concurrently updated").
 */
async function grantTestRoleTriggerSwitch(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const grant = `GRANT SET ON PARAMETER session_replication_role TO ${TEST_APP_ROLE}`;
      await asServer(async (admin) => {
        await admin.query(grant);
        // On a Citus coordinator the switch reaches the workers' shards too (switchTriggersOff).
        if (testServerIsCitus()) await admin.query("select run_command_on_workers($1)", [grant]);
      });
      return;
    } catch (error) {
      if (attempt >= 5 || !/tuple concurrently updated/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

type Tx = { $executeRawUnsafe(sql: string): Promise<unknown> };

/**
 * `set local <assignment>` for the rest of `tx`'s transaction, on every node: on a Citus cluster
 * the workers' shards run the statements, which a SET LOCAL reaches only with
 * citus.propagate_set_commands; on one node that setting is a placeholder nothing reads.
 */
export async function setLocalOnEveryNode(tx: Tx, assignment: string): Promise<void> {
  await tx.$executeRawUnsafe("set local citus.propagate_set_commands = 'local'");
  await tx.$executeRawUnsafe(`set local ${assignment}`);
}

/** Switches triggers off for the rest of `tx`'s transaction (tests that damage data behind them). */
export async function switchTriggersOff(tx: Tx): Promise<void> {
  await setLocalOnEveryNode(tx, "session_replication_role = replica");
}

async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await asServer((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      return;
    } catch (error) {
      // On a Citus coordinator the drop reaches the workers, where the coordinator's own cached
      // connections to the database may linger a moment after the run's last query.
      if (!testServerIsCitus() || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** A fresh database, migrated and granted: a template for copies, or one used as it is. */
export async function createTestDatabase(label: string): Promise<TestDatabase & { name: string }> {
  await assertReachable(databaseUrlFor(testServer()));
  const name = `custodian_${label}_${randomBytes(4).toString("hex")}`;
  await asServer(async (admin) => {
    await admin.query(`CREATE DATABASE "${name}"`);
    await ensureRole(admin, TEST_APP_ROLE, { login: true });
  });
  const { url, ownerUrl } = urlsOf(name);
  await prepareDatabaseSchema(name);
  await grantTestRole(name);
  await grantTestRoleTriggerSwitch();
  return { name, url, ownerUrl, drop: () => dropDatabase(name) };
}

/**
 * The copy of `template` for the worker `worker`, made on its first use and kept for the worker's
 * later files (as one database served every file before workers ran side by side).
 */
export async function workerDatabase(template: string, worker: string): Promise<TestDatabase> {
  const name = `${template}_w${worker}`;
  const exists = await asServer(
    async (admin) => (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1,
  );
  if (!exists && testServerIsCitus()) {
    await asServer((admin) => admin.query(`CREATE DATABASE "${name}"`));
    await prepareDatabaseSchema(name);
    await grantTestRole(name);
  } else if (!exists) {
    await asServer((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
    await grantTestRole(name);
  }
  return { ...urlsOf(name), drop: () => dropDatabase(name) };
}

/** Drops a template and every worker's copy of it. */
export async function dropTestDatabases(template: string): Promise<void> {
  const copies = await asServer(
    async (admin) =>
      (await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${template}\\_w%`]))
        .rows,
  );
  for (const { datname } of copies) await dropDatabase(datname);
  await dropDatabase(template);
}

/** In a database test: the test's database as its owner (set by the db tests' setup file). */
export function ownerDatabaseUrl(): string {
  const url = process.env.TEST_OWNER_DATABASE_URL;
  if (!url) throw new Error("TEST_OWNER_DATABASE_URL is set by the database tests' setup file");
  return url;
}
