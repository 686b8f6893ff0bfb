/**
 * The embedded database's one session shared by many connections: parameterised queries of many
 * connections at once never clobber each other, and a connection that holds a transaction open
 * and sends nothing is cut off once others have waited the idle limit, so they go on.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";
import { parseDatabaseUrl } from "./pg-pool";

const IDLE_LIMIT_MS = 400;
let dir: string;
let database: EmbeddedDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "custodian-turns-"));
  process.env.DATABASE_IDLE_IN_TRANSACTION_MS = String(IDLE_LIMIT_MS);
  try {
    database = await openEmbeddedDatabase(path.join(dir, "pgdata"));
  } finally {
    delete process.env.DATABASE_IDLE_IN_TRANSACTION_MS;
  }
  pool = new pg.Pool({ ...parseDatabaseUrl(database.url), max: 8 });
  pool.on("error", () => {});
});

afterAll(async () => {
  await pool.end();
  await database.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("connections taking turns on the embedded database", () => {
  it("serves many connections' parameterised queries at once, each its own answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        pool.query<{ n: number; s: string }>("select $1::int as n, $2::text as s", [i, `v${i}`]),
      ),
    );
    answers.forEach((result, i) => expect(result.rows).toEqual([{ n: i, s: `v${i}` }]));
  });

  it("keeps a transaction's statements together while others wait, then serves them", async () => {
    await pool.query("create table if not exists turn_test (n int)");
    const holder = await pool.connect();
    try {
      await holder.query("begin");
      await holder.query("insert into turn_test values (1)");
      const outside = pool.query<{ count: string }>("select count(*)::text as count from turn_test");
      await holder.query("insert into turn_test values (2)");
      await holder.query("commit");
      // The other connection saw the transaction whole, never half of it.
      expect((await outside).rows[0]!.count).toBe("2");
    } finally {
      holder.release();
    }
  });

  it("cuts off a connection idle in its transaction once others waited the limit, and rolls it back", async () => {
    const stuck = await pool.connect();
    stuck.on("error", () => {});
    await stuck.query("begin");
    await stuck.query("insert into turn_test values (99)");
    // Never committed: the others wait, then the watchdog ends it.
    const started = Date.now();
    const { rows } = await pool.query<{ count: string }>("select count(*)::text as count from turn_test where n = 99");
    expect(rows[0]!.count).toBe("0");
    expect(Date.now() - started).toBeGreaterThanOrEqual(IDLE_LIMIT_MS - 50);
    await expect(stuck.query("commit")).rejects.toThrow();
    stuck.release(true);
    // And the database serves everyone as before.
    expect((await pool.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });
});
