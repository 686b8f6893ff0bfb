import { z } from "zod";
import { parseTrustedProxies } from "./client-address";

/**
 * Every environment variable Custodian reads, validated in one place. A value that does not fit
 * stops with one line naming the variable; an empty value counts as unset. Read through `env()`,
 * never `process.env`: values that tests or the database bootstrap set at run time are seen, since
 * the environment is read again whenever it changed.
 */

const positiveInt = (max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(1).max(max);
const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), { message: "must be a postgresql:// URL" })
  .refine((v) => URL.canParse(v), { message: "is not a valid URL" });

const EnvSchema = z.object({
  /** The web server's port and address (`npm start`). */
  PORT: positiveInt(65_535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * The database, as the application's role (INSERT and SELECT only on the audit log); unset means
   * the embedded one (`npm start`).
   */
  DATABASE_URL: postgresUrl.optional(),
  /**
   * The same database as the owner of its schema, for migrations (applied at start) and the rights
   * they grant DATABASE_URL's role; unset: migrations run as DATABASE_URL (which then owns the audit
   * log, and can erase it).
   */
  MIGRATION_DATABASE_URL: postgresUrl.optional(),
  /** Set by the bootstrap: which kind of database the process runs on. */
  CUSTODIAN_DATABASE_MODE: z.enum(["embedded", "postgres"]).optional(),
  DATABASE_POOL_SIZE: positiveInt(1000).default(10),
  /**
   * Limits on every connection, in milliseconds (0: none): one statement's run, a wait for a lock,
   * and a transaction left idle (on the embedded database: how long others wait behind a
   * transaction that sends nothing before it is rolled back).
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(120_000),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(15_000),
  DATABASE_IDLE_IN_TRANSACTION_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  /** Where the embedded database keeps its files. */
  CUSTODIAN_DATA_DIR: z.string().min(1).optional(),
  /** "1" loads the demo project into an empty database on start. */
  CUSTODIAN_DEMO: z.enum(["0", "1"]).optional(),
  /** Minutes between sweeps in the server; 0 turns the schedule off. */
  CUSTODIAN_SWEEP_INTERVAL_MINUTES: z.coerce.number().min(0).max(525_600).default(60),
  /**
   * Milliseconds between the search indexer's runs in the server (each run indexes everything
   * stored since the last); 0 turns it off. Search finds every stored span either way: what is not
   * indexed yet is read as it is searched, which is slower the more there is.
   */
  CUSTODIAN_SEARCH_INDEX_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  CUSTODIAN_RATE_LIMIT_PER_MINUTE: positiveInt().default(6000),
  /**
   * Password sign-in (the form and /api/auth alike), counted in Postgres: failed attempts allowed
   * per account (1 to 10,000) and per address (1 to 1,000,000) within one window of this many
   * seconds (1 to 86,400: counters older than a day are forgotten).
   */
  CUSTODIAN_SIGN_IN_ACCOUNT_LIMIT: positiveInt(10_000).default(10),
  CUSTODIAN_SIGN_IN_ADDRESS_LIMIT: positiveInt(1_000_000).default(50),
  CUSTODIAN_SIGN_IN_WINDOW_SECONDS: positiveInt(86_400).default(900),
  /** Requests with an unknown API key allowed per address (1 to 1,000,000) within a window of these seconds (1 to 86,400). */
  CUSTODIAN_UNKNOWN_KEY_LIMIT: positiveInt(1_000_000).default(30),
  CUSTODIAN_UNKNOWN_KEY_WINDOW_SECONDS: positiveInt(86_400).default(60),
  /**
   * The proxies in front of the server, comma-separated addresses or CIDR ranges (e.g.
   * "10.0.0.0/8, ::1"). X-Forwarded-For is believed only on connections from one of them; unset
   * (the default), a request's address is always its connection's own.
   */
  CUSTODIAN_TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      try {
        parseTrustedProxies(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  /**
   * Background imports allowed to wait in one server's queue, per project and in all (each holds
   * its file, up to 256 MiB, in a temporary file while it waits); past either, an import is refused
   * with 429 IMPORT_QUEUE_FULL before its file is read.
   */
  CUSTODIAN_IMPORT_QUEUE_PROJECT_LIMIT: positiveInt(10_000).default(4),
  CUSTODIAN_IMPORT_QUEUE_LIMIT: positiveInt(10_000).default(16),
  /**
   * Folders (comma-separated) whose transcripts Claude Code's HTTP hooks may have this server read;
   * a hook naming a file anywhere else is refused. Unset: the server user's Claude Code projects
   * folder (`$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`).
   */
  CUSTODIAN_HOOK_TRANSCRIPT_ROOTS: z.string().min(1).optional(),
  /** Claude Code's own folder, when moved from ~/.claude (as Claude Code reads it). */
  CLAUDE_CONFIG_DIR: z.string().min(1).optional(),
  /** The longest an HTTP hook that answers with the gate (PreCompact) is kept waiting, in ms. */
  CUSTODIAN_HOOK_TIMEOUT_MS: positiveInt(600_000).default(10_000),
  /** Imports larger than this run in the background (202 with a job). */
  CUSTODIAN_SYNC_IMPORT_BYTES: positiveInt().optional(),
  /** Signs session cookies; required to share sign-ins across servers. */
  BETTER_AUTH_SECRET: z.string().min(16, { message: "must be at least 16 characters" }).optional(),
  BETTER_AUTH_URL: z.url().optional(),
  /**
   * The Ed25519 private key (PKCS#8 PEM) that signs evidence exports; required to share it across
   * servers. Unset: one generated once into .custodian/export-signing-key.
   */
  CUSTODIAN_EXPORT_SIGNING_KEY: z.string().min(1).optional(),
  /** The server the database tests create their databases on. */
  TEST_DATABASE_URL: postgresUrl.optional(),
  /** The browser the end-to-end tests drive. */
  CHROMIUM_PATH: z.string().min(1).optional(),
  NODE_ENV: z.enum(["development", "production", "test"]).optional(),
  NEXT_RUNTIME: z.enum(["nodejs", "edge"]).optional(),
  /** Benchmarks (`npm run bench:*`). */
  BENCH_SECONDS: positiveInt().optional(),
  BENCH_CONCURRENCY: positiveInt(1000).optional(),
  BENCH_ITERATIONS: positiveInt().optional(),
  BENCH_WARMUP: z.coerce.number().int().min(0).optional(),
  BENCH_PROJECT: z.string().min(1).optional(),
  /** `npm run bench:questions`: the HTTP server, `next start` (default) or the route handler alone. */
  BENCH_HTTP: z.enum(["next", "handler"]).optional(),
  /** `npm run bench:questions`: spans of its embedded-database run (default 100,000; 0 skips it). */
  BENCH_EMBEDDED_SPANS: z.coerce.number().int().min(0).optional(),
  /** `npm run bench:import`: each generated transcript's size in MB (default 50). */
  BENCH_IMPORT_MB: positiveInt(10_000).optional(),
  /** `bench:bodies`: MiB of the one large record imported while health is polled (default 200). */
  BENCH_BODIES_MIB: positiveInt(255).optional(),
  /** `bench:bodies`: chat spans in the hostile OTLP parent chain (default 10,000). */
  BENCH_BODIES_CHAIN: positiveInt(100_000).optional(),
});

export type Env = z.output<typeof EnvSchema>;
export type EnvName = keyof Env;

const NAMES = Object.keys(EnvSchema.shape) as EnvName[];

/** A variable with a value that does not fit: its message is the one line to print. */
export class EnvError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "EnvError";
  }
}

/** Validates an environment (by default the process's). */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const raw: Record<string, string | undefined> = {};
  for (const name of NAMES) {
    const value = source[name];
    raw[name] = value === undefined || value.trim() === "" ? undefined : value;
  }
  const result = EnvSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? "environment");
  throw new EnvError(name, `${name}=${JSON.stringify(raw[name] ?? "")} is not valid: ${issue.message}.`);
}

let cached: { key: string; env: Env } | undefined;

/** The process's environment, validated; read again only when a variable changed. */
export function env(): Env {
  const key = NAMES.map((name) => process.env[name] ?? "").join("\u0000");
  if (cached?.key !== key) cached = { key, env: parseEnv(process.env) };
  return cached.env;
}
