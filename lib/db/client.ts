import { PrismaPg } from "@prisma/adapter-pg";
import { AppError } from "@/lib/api/errors";
import { PrismaClient } from "./generated/client";
import { createPool, parseDatabaseUrl } from "./pg-pool";

export type Db = PrismaClient;
/** A client or an interactive transaction: what use cases accept so they compose inside one transaction. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const holder = globalThis as unknown as { custodianPrisma?: { url: string; client: PrismaClient } };

/** The process's one Prisma client, on DATABASE_URL (which `npm start` sets for the embedded default too). */
export function db(): PrismaClient {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new AppError("DATABASE_UNAVAILABLE", "DATABASE_URL is not set: start Custodian with `npm start`");
  }
  if (holder.custodianPrisma?.url !== url) {
    const pool = createPool(parseDatabaseUrl(url), { max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
    holder.custodianPrisma = {
      url,
      client: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }),
    };
  }
  return holder.custodianPrisma.client;
}

export async function disconnectDb(): Promise<void> {
  const current = holder.custodianPrisma;
  holder.custodianPrisma = undefined;
  await current?.client.$disconnect();
}

/** Which kind of database this process runs on, for health and the UI. */
export function databaseMode(): "embedded" | "postgres" {
  return process.env.CUSTODIAN_DATABASE_MODE === "embedded" ? "embedded" : "postgres";
}
