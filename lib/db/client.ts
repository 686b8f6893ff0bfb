import { env } from "@/lib/core/env";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { AppError } from "@/lib/core/errors";
import { PrismaClient } from "./generated/client";
import { createPool, parseDatabaseUrl } from "./pg-pool";

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
    const pool = createPool(parseDatabaseUrl(url), { max: DATABASE_POOL_SIZE });
    holder.custodianPrisma = {
      url,
      client: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }),
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
  let broken = false;
  try {
    await client.query("begin");
    const out = await fn(client);
    await client.query("commit");
    return out;
  } catch (error) {
    await client.query("rollback").catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * One statement on a connection of the same pool, without Prisma: for results or parameters of
 * megabytes (stored question verdicts), which Prisma's handling makes slow.
 */
export async function rawQuery<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
  return (await pool().query<R>(text, values)).rows;
}

/** The pool under the process's Prisma client (made with it). */
function pool(): pg.Pool {
  db();
  return holder.custodianPrisma!.pool;
}

export async function disconnectDb(): Promise<void> {
  const current = holder.custodianPrisma;
  holder.custodianPrisma = undefined;
  await current?.client.$disconnect();
}

/** Which kind of database this process runs on, for health and the UI. */
export function databaseMode(): "embedded" | "postgres" {
  return env().CUSTODIAN_DATABASE_MODE === "embedded" ? "embedded" : "postgres";
}
