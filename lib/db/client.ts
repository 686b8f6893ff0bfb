import { env } from "@/lib/core/env";
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { AppError } from "@/lib/core/errors";
import { type Prisma, PrismaClient } from "./generated/client";
import { APP_PLANNER_OPTIONS, createPool, parseDatabaseUrl, type PoolTimeouts } from "./pg-pool";

export type Db = PrismaClient;
/** A client or an interactive transaction: what use cases accept so they compose inside one transaction. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const holder = globalThis as unknown as { custodianPrisma?: { url: string; client: PrismaClient; pool: pg.Pool } };

/** The process's one Prisma client, on DATABASE_URL (which `npm start` sets for the embedded default too). */
export function db(): PrismaClient {
  const { DATABASE_URL: url, DATABASE_POOL_SIZE } = env();
  if (!url) {
    throw new AppError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: start Custodian with `npm start`");
  }
  if (holder.custodianPrisma?.url !== url) {
    // The embedded database is built without JIT or parallel workers, and keeps one session for every connection.
    const postgres = databaseMode() === "postgres";
    const pool = createPool(parseDatabaseUrl(url), {
      max: DATABASE_POOL_SIZE,
      timeouts: sessionTimeouts(),
      ...(postgres ? APP_PLANNER_OPTIONS : {}),
    });
    refuseConnectsInsideTransactions(pool);
    holder.custodianPrisma = {
      url,
      // A transaction may wait for a lock up to the lock limit: it must not be timed out before that
      // wait is (Prisma's default is 5 s), or an act racing the sweeper fails with an opaque P2028.
      client: new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { timeout: 30_000, maxWait: 10_000 } }),
      pool,
    };
  }
  return holder.custodianPrisma.client;
}

/**
 * A transaction on a connection of the Prisma client's own pool, without Prisma: for ingest's bulk
 * writes, where Prisma's handling of large array parameters took most of the server's time. Commits
 * when `fn` resolves, rolls back when it throws.
 */
export async function rawTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  const held = { open: true };
  let broken = false;
  try {
    await client.query("begin");
    const out = await openTransactions.run(held, () => fn(client));
    await client.query("commit");
    return out;
  } catch (error) {
    await client.query("rollback").catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    held.open = false;
    client.release(broken);
  }
}

/**
 * The transaction the current flow holds open (rawTransaction), if any. Work the flow starts
 * inside it inherits the store, so it is marked closed when the transaction ends.
 */
const openTransactions = new AsyncLocalStorage<{ open: boolean }>();

/**
 * A flow that holds a transaction and asks the pool for another connection waits on itself where
 * connections queue behind an open transaction (the embedded database serves one transaction at a
 * time to all its connections): the inner query waits for the transaction, the transaction for
 * the inner query, forever. So such a connect fails at once, on every database, and the tests
 * find it; queries inside a transaction run on its own connection.
 */
function refuseConnectsInsideTransactions(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (openTransactions.getStore()?.open) {
      const error = new AppError(
        "INTERNAL",
        "A query asked for a second connection while its flow holds a transaction open: run it on the transaction's connection",
      );
      const callback = args[0];
      if (typeof callback === "function") {
        process.nextTick(() => (callback as (e: Error) => void)(error));
        return undefined;
      }
      return Promise.reject(error);
    }
    return connect(...args);
  };
}

/**
 * Limits every connection of the app's pool sets on its Postgres session, so that a lock or a
 * transaction left open cannot hold others forever. The embedded database keeps one session for
 * all connections and its own watchdog instead (embedded.ts).
 */
function sessionTimeouts(): PoolTimeouts | undefined {
  if (databaseMode() === "embedded") return undefined;
  const e = env();
  return {
    statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    lockMs: e.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_MS,
  };
}

/**
 * One statement on a connection of the same pool, without Prisma: for results or parameters of
 * megabytes (stored question verdicts), which Prisma's handling makes slow.
 */
export async function rawQuery<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
  return (await pool().query<R>(text, values)).rows;
}

/**
 * A statement built with Prisma.sql, run on a connection of the same pool without Prisma: for the
 * hot paths where Prisma's handling of each request costs more than the statement (a hook's
 * capture, an evidence question's many reads).
 */
export async function sqlRows<R extends pg.QueryResultRow>(query: Prisma.Sql): Promise<R[]> {
  return rawQuery<R>(query.text, query.values);
}

/** The pool under the process's Prisma client (made with it). */
function pool(): pg.Pool {
  db();
  return holder.custodianPrisma!.pool;
}

/** How long disconnectDb waits for connections still in use before it stops waiting. */
export const DISCONNECT_GRACE_MS = 10_000;

/**
 * Closes the process's client and its pool. Ending the pool waits for every connection in use to
 * come back; one that never does (a query or transaction left running) must not keep a CLI command
 * or a test run waiting here, so after `graceMs` this stops waiting and says how many were still in
 * use (they close when their work ends). Whether every connection came back in time is returned.
 */
export async function disconnectDb(graceMs = DISCONNECT_GRACE_MS): Promise<boolean> {
  const current = holder.custodianPrisma;
  holder.custodianPrisma = undefined;
  if (!current) return true;
  const { client, pool } = current;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
    timer.unref();
  });
  // The pool is ours to end (raw transactions use it too), whether or not Prisma ever connected,
  // and whether or not Prisma's own disconnect succeeds.
  const closing = Promise.all([
    client.$disconnect().catch((error: unknown) => console.warn("Database: the client did not disconnect cleanly", error)),
    pool.end(),
  ]).then(() => true as const);
  try {
    const closed = await Promise.race([closing, gaveUp]);
    if (!closed) {
      const inUse = pool.totalCount - pool.idleCount;
      console.warn(`Database: ${inUse} connection(s) still in use ${graceMs} ms after closing began; not waiting for them`);
    }
    return closed;
  } finally {
    clearTimeout(timer);
  }
}

/** Which kind of database this process runs on, for health and the UI. */
export function databaseMode(): "embedded" | "postgres" {
  return env().CUSTODIAN_DATABASE_MODE === "embedded" ? "embedded" : "postgres";
}

/** Socket errors of a database connection that is gone or never came. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
]);
/**
 * SQLSTATEs that say the database cannot serve now, whatever the query: connection exceptions
 * (class 08), shutdown and recovery (57P01-57P03), too many connections (53300), a database that
 * does not exist or does not accept connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "3D000"]);
/** The Prisma driver adapter's kinds for the same, and Prisma's own codes (P1001 cannot reach, P2024 pool timeout...). */
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "DatabaseDoesNotExist",
]);
const UNAVAILABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** What pg says when a pooled connection dies or cannot be made in time. */
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended unexpectedly",
  "is not currently accepting connections",
  "the database system is",
];

/**
 * Whether an error means the database cannot be reached or cannot serve now (as opposed to a
 * query that failed): the caller should answer 503 and try again later. Looks through Prisma's
 * wrappers to the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const o = e as {
      code?: unknown;
      kind?: unknown;
      severity?: unknown;
      message?: unknown;
      cause?: unknown;
      originalCode?: unknown;
      meta?: { driverAdapterError?: unknown };
      errors?: unknown;
    };
    const code = typeof o.code === "string" ? o.code : typeof o.originalCode === "string" ? o.originalCode : "";
    if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_PRISMA_CODES.has(code)) return true;
    if (code.startsWith("08")) return true;
    // A FATAL error from the server ends the session: the connection itself failed.
    if (o.severity === "FATAL") return true;
    if (typeof o.kind === "string" && UNAVAILABLE_KINDS.has(o.kind)) return true;
    if (typeof o.message === "string" && UNAVAILABLE_MESSAGES.some((m) => (o.message as string).includes(m))) return true;
    queue.push(o.cause, o.meta?.driverAdapterError);
    if (Array.isArray(o.errors)) queue.push(...o.errors);
  }
  return false;
}
