import { env } from "@/lib/core/env";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { StartupError } from "./startup-error";
import { takeTurns } from "./embedded-turns";

/**
 * The zero-setup database: PGlite (Postgres compiled to WASM) keeping its files in a local folder,
 * served on a loopback port so that Prisma and `pg` reach it exactly as they reach a real server.
 *
 * One process owns the folder at a time. It records its pid and port in `owner.json`, so other
 * processes (the CLI while the server runs) connect to the owner instead of opening the files.
 */

export const DEFAULT_DATA_DIR = path.resolve(env().CUSTODIAN_DATA_DIR ?? path.join(process.cwd(), ".custodian", "pgdata"));

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the database (and must stop it). */
  owned: boolean;
  /** SQL as the owner (the database's superuser), before `restrictTo`; only where owned. */
  exec(sql: string): Promise<void>;
  /**
   * From now on every connection acts as `role`. PGlite is one Postgres session shared by every
   * connection its socket serves, whatever user a client names, so the role is set on that session.
   */
  restrictTo(role: string): Promise<void>;
  /**
   * Statements and COPY text straight into the database, without the socket (its clients cannot
   * COPY from stdin): for loading data sets before others connect. Only where owned.
   */
  direct: {
    query(text: string, values?: unknown[]): Promise<unknown>;
    copy(table: string, columns: readonly string[], text: string): Promise<void>;
  };
  stop(): Promise<void>;
}

const notOwned = async () => {
  throw new StartupError("The embedded database is served by another process: it runs the migrations.");
};

interface OwnerRecord {
  pid: number;
  port: number;
}

function ownerFile(dataDir: string): string {
  return path.join(path.dirname(dataDir), "owner.json");
}

function urlFor(port: number): string {
  return `postgresql://postgres@127.0.0.1:${port}/postgres`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function runningOwner(dataDir: string): OwnerRecord | null {
  const file = ownerFile(dataDir);
  if (!existsSync(file)) return null;
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as OwnerRecord;
    return owner.pid !== process.pid && isAlive(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

export async function openEmbeddedDatabase(dataDir = DEFAULT_DATA_DIR, port = 0): Promise<EmbeddedDatabase> {
  const owner = runningOwner(dataDir);
  if (owner) {
    const direct = { query: notOwned, copy: notOwned };
    return { url: urlFor(owner.port), owned: false, exec: notOwned, restrictTo: notOwned, direct, stop: async () => {} };
  }

  mkdirSync(dataDir, { recursive: true });
  let db: PGlite;
  try {
    // pg_trgm: search's substring index (migration 20261205170000_span_search creates the extension).
    db = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  } catch (error) {
    throw new StartupError(
      `The embedded database in ${dataDir} could not be opened (${describe(error)}). ` +
        `Nothing was deleted: move that folder aside to start afresh, or set DATABASE_URL to use your own Postgres.`,
    );
  }
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 64 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw new StartupError(`The embedded database could not listen on 127.0.0.1:${port} (${describe(error)}).`);
  }
  // One session for every connection: each keeps its turn through its exchange or transaction.
  const turns = takeTurns(server, db, env().DATABASE_IDLE_IN_TRANSACTION_MS);
  const boundPort = Number(server.getServerConn().split(":").pop());
  writeFileSync(ownerFile(dataDir), JSON.stringify({ pid: process.pid, port: boundPort } satisfies OwnerRecord));

  let stopped = false;
  return {
    url: urlFor(boundPort),
    owned: true,
    async exec(sql) {
      await db.exec(sql);
    },
    async restrictTo(role) {
      await db.exec(`SET ROLE "${role.replace(/"/g, '""')}"`);
    },
    direct: {
      query: (text, values) => db.query(text, values),
      async copy(table, columns, text) {
        if (text.length === 0) return;
        await db.query(`copy ${table} (${columns.join(", ")}) from '/dev/blob'`, [], { blob: new Blob([text]) });
      },
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      turns.stop();
      await server.stop();
      await db.close();
      rmSync(ownerFile(dataDir), { force: true });
    },
  };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
