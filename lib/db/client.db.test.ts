import { signal } from "./test-signal";
import { inTimeZone } from "@/lib/core/test-time-zone";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { db, disconnectDb, rawQuery, rawTransaction } from "./client";

describe("disconnectDb", () => {
  it("waits for the pool to close when every connection has come back", async () => {
    await db().$queryRaw`select 1`;
    expect(await disconnectDb(5_000)).toBe(true);
  });

  it("stops waiting after its grace period for a connection still in use, and says how many", async () => {
    const { reached: held, fire: finish } = signal();
    const { reached: inside, fire: started } = signal();
    await db().$queryRaw`select 1`;
    const transaction = rawTransaction(async (client) => {
      await client.query("select 1");
      started();
      await held;
    });
    await inside;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await disconnectDb(200)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("1 connection(s) still in use 200 ms"));
    } finally {
      warn.mockRestore();
      finish();
    }
    // The transaction left running still ends cleanly on its connection.
    await transaction;
  });
});

describe("a connection killed while a flow holds it", () => {
  it("fails that flow's next query instead of crashing the process with an unhandled 'error' event", async () => {
    const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await killer.connect();
    try {
      const flow = rawTransaction(async (client) => {
        const [{ pid }] = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [{ pid: number }];
        const ended = new Promise((resolve) => client.once("end", resolve));
        // Killed between two statements: no query is waiting for the error, so the client emits it.
        await killer.query("select pg_terminate_backend($1)", [pid]);
        await ended;
        await client.query("select 1");
      });
      await expect(flow).rejects.toThrow();
      // The pool hands out working connections afterwards.
      expect(await rawQuery<{ one: number }>("select 1 as one", [])).toEqual([{ one: 1 }]);
    } finally {
      await killer.end();
    }
  });
});

describe("a flow that holds a transaction", () => {
  it("cannot ask the pool for a second connection, through Prisma or raw, and can once it has ended", async () => {
    let later: Promise<unknown> | undefined;
    await rawTransaction(async (client) => {
      await expect(db().$queryRaw`select 1`).rejects.toThrow(/second connection while its flow holds a transaction/);
      await expect(rawQuery("select 1", [])).rejects.toThrow(/second connection/);
      // Its own connection serves it.
      expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      // Work it starts that outlives it runs after the commit, on any connection.
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() => rawQuery<{ two: number }>("select 2 as two", []));
    });
    expect(await later).toEqual([{ two: 2 }]);
  });
});

describe("every connection of the pool", () => {
  it("carries the statement, lock and idle-in-transaction limits", async () => {
    const rows = await rawQuery<{ statement: string; lock: string; idle: string }>(
      `select current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock,
              current_setting('idle_in_transaction_session_timeout') as idle`,
      [],
    );
    expect(rows[0]).toEqual({ statement: "2min", lock: "15s", idle: "30s" });
  });

  it("plans without JIT and without parallel workers", async () => {
    const rows = await rawQuery<{ jit: string; workers: string }>(
      `select current_setting('jit') as jit, current_setting('max_parallel_workers_per_gather') as workers`,
      [],
    );
    expect(rows[0]).toEqual({ jit: "off", workers: "0" });
  });

  it("gives up a lock wait at the lock limit instead of waiting forever", async () => {
    await disconnectDb();
    process.env.DATABASE_LOCK_TIMEOUT_MS = "200";
    try {
      const project = await makeTestProject("lock-wait");
      const { reached: held, fire: release } = signal();
      const { reached: hasLock, fire: locked } = signal();
      const holder = rawTransaction(async (client) => {
        await client.query("select id from project where id = $1 for update", [project.id]);
        locked();
        await held;
      });
      await hasLock;
      await expect(rawQuery("update project set name = name where id = $1", [project.id])).rejects.toThrow(/lock timeout/);
      release();
      await holder;
    } finally {
      delete process.env.DATABASE_LOCK_TIMEOUT_MS;
      await disconnectDb();
    }
  });
});

describe("timestamps on the pool without Prisma", () => {
  it("read and write a timestamp without time zone as UTC, whatever the process's zone", async () => {
    await inTimeZone("America/New_York", async () => {
      const written = new Date("2026-03-01T12:34:56.789Z");
      const [row] = await rawQuery<{ stored: Date; echoed: Date; text: string; far: Date }>(
        `select timestamp '2026-01-01 00:00:00' as stored, $1::timestamp as echoed, $1::timestamp::text as text,
                timestamp '0044-03-15 12:00:00 BC' as far`,
        [written],
      );
      expect(row!.stored.toISOString()).toBe("2026-01-01T00:00:00.000Z");
      expect(row!.text).toBe("2026-03-01 12:34:56.789");
      expect(row!.echoed.getTime()).toBe(written.getTime());
      expect(row!.far.getUTCFullYear()).toBe(-43);
    });
  });
});
