import pg from "pg";

/** Discrete connection fields: the shadow-database path needs them (a URL would pin the database). */
export interface PgConnectionFields {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

export function parseDatabaseUrl(url: string): PgConnectionFields {
  const parsed = new URL(url);
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql://, got ${parsed.protocol}//`);
  }
  return {
    host: decodeURIComponent(parsed.hostname) || "127.0.0.1",
    port: parsed.port ? Number(parsed.port) : 5432,
    user: decodeURIComponent(parsed.username) || "postgres",
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
  };
}

export function databaseUrlFor(fields: PgConnectionFields): string {
  const auth = fields.password
    ? `${encodeURIComponent(fields.user)}:${encodeURIComponent(fields.password)}`
    : encodeURIComponent(fields.user);
  return `postgresql://${auth}@${fields.host}:${fields.port}/${encodeURIComponent(fields.database)}`;
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

/**
 * Prisma's WASM schema engine cannot decode Postgres' internal `"char"` type when it introspects
 * the catalog; reporting those columns as text is lossless for the single-byte values involved.
 */
function reportCharAsText<T>(result: T): T {
  const fields = (result as QueryResultLike | undefined)?.fields;
  if (fields) for (const field of fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  return result;
}

function patchQuery(target: { query: (...args: never[]) => unknown }): void {
  const original = target.query.bind(target) as (...args: unknown[]) => unknown;
  (target as { query: unknown }).query = (...args: unknown[]) => {
    const out = original(...args);
    if (out && typeof (out as Promise<unknown>).then === "function") {
      return (out as Promise<unknown>).then(reportCharAsText);
    }
    return out;
  };
}

/** Postgres session limits in milliseconds; 0 turns one off. */
export interface PoolTimeouts {
  statementMs: number;
  lockMs: number;
  idleInTransactionMs: number;
}

export interface PoolOptions {
  max?: number;
  timeouts?: PoolTimeouts;
  /**
   * No just-in-time compilation on these connections. The app's statements are index reads of
   * milliseconds, but a plan over a project's million rows crosses jit_above_cost, and compiling it
   * costs a hundred milliseconds or more each time, far more than it saves.
   */
  noJit?: boolean;
  /**
   * No parallel workers within a statement. A request's statements already run side by side (an
   * evidence question sends five at once), and a statement's workers competed with them for the
   * same cores: on two cores the whole-project question took 497-537 ms p50 with them and
   * 436-452 ms without, its database CPU no lower.
   */
  noParallelWorkers?: boolean;
  /** Patch result types for the schema engine; only the migration CLI needs it. */
  forSchemaEngine?: boolean;
}

/** How the app's connections to PostgreSQL plan (the embedded database has neither JIT nor parallel workers). */
export const APP_PLANNER_OPTIONS: PoolOptions = { noJit: true, noParallelWorkers: true };

/** The settings sent with each connection's start (libpq's `options`), or undefined for none. */
export function sessionOptions(options: PoolOptions): string | undefined {
  const settings = [
    ...(options.noJit ? ["-c jit=off"] : []),
    ...(options.noParallelWorkers ? ["-c max_parallel_workers_per_gather=0"] : []),
  ];
  return settings.length > 0 ? settings.join(" ") : undefined;
}

/**
 * Timestamps are stored without a time zone and mean UTC, as Prisma writes and reads them.
 * node-postgres reads such a value, and writes a Date parameter, in the process's own zone: on a
 * server whose TZ is not UTC, statements run on the pool without Prisma (an evidence question's
 * reads) saw every time shifted, and with it whether an original had expired. The pool's
 * connections read them as UTC (Prisma's adapter passes parsers of its own with each statement),
 * and node-postgres writes Date parameters as UTC (Prisma's adapter formats its own).
 */
pg.defaults.parseInputDatesAsUTC = true;

const TIMESTAMP = pg.types.builtins.TIMESTAMP;
const parseZoned = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, "text") as (text: string) => Date;

/** A `timestamp without time zone` value's text, read as UTC ("infinity" and BC years as the driver reads them). */
export function parseUtcTimestamp(text: string): Date {
  if (text === "infinity" || text === "-infinity") return parseZoned(text);
  return parseZoned(text.endsWith(" BC") ? `${text.slice(0, -3)}Z BC` : `${text}Z`);
}

const utcTimestamps = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP && format !== "binary"
      ? parseUtcTimestamp
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function createPool(fields: PgConnectionFields, options: PoolOptions = {}): pg.Pool {
  const t = options.timeouts;
  const pool = new pg.Pool({
    ...fields,
    types: utcTimestamps,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    // Sent with each connection's start, so they hold from its first statement on.
    ...(t
      ? { statement_timeout: t.statementMs, lock_timeout: t.lockMs, idle_in_transaction_session_timeout: t.idleInTransactionMs }
      : {}),
    ...(sessionOptions(options) ? { options: sessionOptions(options) } : {}),
  });
  // A dropped connection (server restart, forced database drop, a killed backend) must not crash the
  // process. The pool listens for errors of idle connections only; one killed while checked out
  // between two statements emits 'error' on the client itself, with no listener, which Node throws.
  // That client's next query fails instead, and its flow answers as for any failed query.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  if (options.forSchemaEngine) {
    patchQuery(pool as unknown as { query: (...args: never[]) => unknown });
    pool.on("connect", (client) => patchQuery(client as unknown as { query: (...args: never[]) => unknown }));
  }
  return pool;
}
