import pg from "pg";
import { databaseUrlFor, parseDatabaseUrl } from "./pg-pool";
import { functionDefinitions, hasShardForm, singleNodeForm } from "./shard-forms";
import { readSqlSources, type SqlSource } from "./sql-sources";

/**
 * The distributed layout on a Citus cluster (docs/citus.md). One project can hold billions of spans,
 * so the data is distributed by session: `session` by its id, and every table keyed by session by
 * its session_id, colocated with it (a session's rows sit on one worker, and joins on session_id
 * never leave it). Projects, people, keys, policies and saved questions are reference tables (a
 * copy on every node, read locally by the session tables' triggers and joins). The rest (audit log,
 * sign-in, jobs, cursors, OTLP buffer, throttle) stays on the coordinator as Citus local tables.
 */
export const SESSION_TABLES = [
  "span",
  "span_original",
  "evidence_atom",
  "summary_link",
  "gate_decision",
  "refusal_event",
  "compaction",
  "question_verdict",
  "skipped_record",
  "span_grid_count",
  "span_storage_count",
  "span_expiry_count",
  "span_search",
  "span_search_pending",
] as const;

export const REFERENCE_TABLES = [
  "project",
  "app_user",
  "project_member",
  "api_key",
  "retention_policy",
  "retention_policy_version",
  "saved_question",
] as const;

/** The one key of the single-node schema without session_id (docs/citus.md, "Keys"). */
const SESSION_PAIR_KEY = "session_project_id_external_id_key";
const SESSION_PAIR_INDEX = "session_project_id_external_id_idx";

export interface CitusNode {
  host: string;
  port: number;
}

export interface DistributeOptions {
  /** Workers to register (with their citus extension made in this database) when not yet registered. */
  workers: CitusNode[];
  /** Shards per distributed table (Citus's default is 32). */
  shardCount?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

type Client = Pick<pg.Client, "query">;

async function one<T>(client: Client, sql: string, values: unknown[] = []): Promise<T | undefined> {
  return (await client.query(sql, values)).rows[0] as T | undefined;
}

/** The Citus table type of `table` ("distributed", "reference", "local") or null when Citus does not know it. */
async function citusType(client: Client, table: string): Promise<string | null> {
  const row = await one<{ t: string }>(client, "select citus_table_type as t from citus_tables where table_name = $1::regclass", [
    table,
  ]);
  return row?.t ?? null;
}

/** Makes the citus extension in the database of `url` on a worker (it must exist there before the node is added). */
async function prepareWorker(url: string): Promise<void> {
  const worker = new pg.Client({ ...parseDatabaseUrl(url), connectionTimeoutMillis: 10_000 });
  await worker.connect();
  try {
    await worker.query("create extension if not exists citus");
  } finally {
    await worker.end();
  }
}

/** Registers the coordinator and the workers in this database's metadata (pg_dist_node is per database). */
async function registerNodes(client: Client, coordinator: CitusNode, options: DistributeOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const nodes = (
    await client.query<{ nodename: string; nodeport: number; groupid: number }>(
      "select nodename, nodeport, groupid from pg_dist_node",
    )
  ).rows;
  if (!nodes.some((n) => n.groupid === 0)) {
    await client.query("select citus_set_coordinator_host($1, $2)", [coordinator.host, coordinator.port]);
    log(`coordinator ${coordinator.host}:${coordinator.port} registered`);
  }
  const { user, password, database } = parseDatabaseUrl(await currentUrl(client, coordinator));
  for (const w of options.workers) {
    if (nodes.some((n) => n.nodename === w.host && n.nodeport === w.port)) continue;
    await prepareWorker(databaseUrlFor({ host: w.host, port: w.port, user, password, database }));
    await client.query("select citus_add_node($1, $2)", [w.host, w.port]);
    log(`worker ${w.host}:${w.port} added`);
  }
  const workers = await one<{ n: number }>(client, "select count(*)::int as n from pg_dist_node where groupid <> 0");
  if (!workers?.n) throw new Error("No Citus worker is registered in this database: name them with --worker host:port.");
}

async function currentUrl(client: Client, node: CitusNode): Promise<string> {
  const row = await one<{ db: string; u: string }>(client, "select current_database() as db, current_user as u");
  return databaseUrlFor({ host: node.host, port: node.port, user: row?.u ?? "postgres", database: row?.db ?? "postgres" });
}

/** Foreign keys between session-scoped tables, which must be dropped while their tables are distributed. */
async function sessionForeignKeys(client: Client): Promise<{ tbl: string; conname: string; def: string }[]> {
  const tables = ["session", ...SESSION_TABLES];
  return (
    await client.query<{ tbl: string; conname: string; def: string }>(
      `select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
         from pg_constraint
        where contype = 'f' and conrelid = any($1::regclass[]) and confrelid = any($1::regclass[])
        order by 1, 2`,
      [tables],
    )
  ).rows;
}

/**
 * Turns the database `client` is connected to (the coordinator, migrated) into the distributed
 * layout. Idempotent: each step checks what is already done, so a run that stopped half way, or a
 * second run, finishes the layout and changes nothing else. Existing rows move to the workers as
 * their tables are distributed (a move of an existing install: docs/citus.md).
 */
export async function distribute(client: Client, coordinator: CitusNode, options: DistributeOptions): Promise<string[]> {
  const done: string[] = [];
  const log = (line: string) => {
    done.push(line);
    options.log?.(line);
  };
  await client.query("create extension if not exists citus");
  await registerNodes(client, coordinator, { ...options, log });
  // Triggers on distributed and reference tables are what keep the derived state (DERIVED_STATE.md);
  // Citus creates them on every shard only with this on, for this connection and later migrations.
  await client.query("set citus.enable_unsafe_triggers = on");
  const db = (await one<{ db: string }>(client, "select current_database() as db"))?.db as string;
  await client.query(`alter database "${db.replace(/"/g, '""')}" set citus.enable_unsafe_triggers = on`);

  // Before the tables move, so that their shards' triggers are made with these forms.
  await installShardForms(client, log);

  for (const table of REFERENCE_TABLES) {
    if ((await citusType(client, table)) === "reference") continue;
    await client.query("select create_reference_table($1)", [table]);
    log(`${table}: reference table`);
  }

  if ((await citusType(client, "session")) !== "distributed") {
    // Keys of distributed tables must include the distribution column: (project_id, external_id)
    // gives way to an index, the derived session id keeping one session per pair (sessionIdFor).
    // (Prisma made it as a unique index, not a constraint.)
    const pairKey = await one(client, "select 1 from pg_class where relname = $1 and relkind = 'i'", [SESSION_PAIR_KEY]);
    if (pairKey) {
      await client.query(`drop index ${SESSION_PAIR_KEY}`);
      log(`session: unique (project_id, external_id) replaced by index ${SESSION_PAIR_INDEX}`);
    }
    await client.query(`create index if not exists ${SESSION_PAIR_INDEX} on session (project_id, external_id)`);
  }

  const pending = ["session", ...SESSION_TABLES];
  const missing: string[] = [];
  for (const t of pending) if ((await citusType(client, t)) !== "distributed") missing.push(t);
  if (missing.length > 0) {
    // Citus distributes a table only when no local table references it: drop the keys between
    // session tables, distribute them all, then add the keys again (on the distributed tables, they
    // hold per shard; ON UPDATE CASCADE of a distribution column is not supported, ids never change).
    const keys = await sessionForeignKeys(client);
    for (const k of keys) await client.query(`alter table "${k.tbl}" drop constraint "${k.conname}"`);
    const shards = options.shardCount ?? 32;
    for (const t of missing) {
      if (t === "session") {
        await client.query("select create_distributed_table('session', 'id', shard_count => $1)", [shards]);
      } else {
        await client.query("select create_distributed_table($1, 'session_id', colocate_with => 'session')", [t]);
      }
      log(`${t}: distributed by ${t === "session" ? "id" : "session_id"}, colocated with session`);
    }
    for (const k of keys) {
      await client.query(`alter table "${k.tbl}" add constraint "${k.conname}" ${k.def.replace(/ ON UPDATE CASCADE/, "")}`);
    }
    if (keys.length > 0) log(`${keys.length} foreign keys between session tables added again`);
  }

  // Prisma returns every enum column of a write as "column::text", and Citus refuses a write
  // whose RETURNING calls a function that is not IMMUTABLE: enum_out is STABLE only because a label
  // can be renamed (ALTER TYPE ... RENAME VALUE), which Custodian never does. Marked IMMUTABLE in
  // this database on every node (docs/citus.md, "Limits").
  const enumOut = "alter function pg_catalog.enum_out(anyenum) immutable";
  const volatility = await one<{ v: string }>(
    client,
    "select provolatile as v from pg_proc where oid = 'pg_catalog.enum_out'::regproc",
  );
  if (volatility?.v !== "i") {
    await client.query(enumOut);
    log("enum_out marked IMMUTABLE (Prisma's RETURNING of enum columns)");
  }
  await client.query("select run_command_on_workers($1)", [enumOut]);

  // The shared rules (custodian_*, prisma/sql/README.md) that triggers and queries call must exist
  // on every node: Citus propagates a function made after the extension, not one the migrations
  // made before it. (Trigger functions follow their tables; the audit log's stay on the coordinator.)
  const functions = (
    await client.query<{ f: string }>(
      `select p.oid::regprocedure::text as f
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prokind = 'f' and p.proname like 'custodian\\_%'
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
          and not exists (select 1 from pg_dist_object o where o.classid = 'pg_proc'::regclass and o.objid = p.oid)`,
    )
  ).rows;
  for (const { f } of functions) await client.query("select create_distributed_function($1)", [f]);
  if (functions.length > 0) log(`${functions.length} functions distributed to every node`);
  return done;
}

/**
 * Installs the Citus form of every trigger function whose file in prisma/sql writes statements
 * through custodian_shard_sql (lib/db/shard-forms.ts): the migrations made their one-node form,
 * static statements that name the distributed tables, which a trigger on a shard cannot run.
 * Idempotent: a function already in its Citus form is left alone. A function in neither form (the
 * database migrated to another version than these files) stops it: migrate, then run it again.
 * Run by `distribute`, and after the migrations at start on a distributed database (bootstrap.ts).
 */
export async function installShardForms(
  client: Client,
  log: (line: string) => void = () => {},
  sources: SqlSource[] = readSqlSources(),
): Promise<number> {
  let installed = 0;
  for (const source of sources.filter((s) => hasShardForm(s.text))) {
    for (const fn of functionDefinitions(source.text)) {
      const row = await one<{ src: string }>(
        client,
        "select p.prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = $1",
        [fn.name],
      );
      if (row?.src === fn.body) continue;
      if (row?.src !== singleNodeForm(fn.body)) {
        throw new Error(
          `${fn.name} in the database is neither the form of prisma/sql/${source.file} nor its one-node form: ` +
            "apply this version's migrations first.",
        );
      }
      await client.query(fn.definition);
      installed++;
    }
  }
  if (installed > 0) log(`${installed} trigger functions in their Citus form (statements on the colocated shards)`);
  return installed;
}

/** True when the database is distributed (the citus extension, and `session` a distributed table). */
export async function isDistributed(client: Client): Promise<boolean> {
  const citus = await one(client, "select 1 from pg_extension where extname = 'citus'");
  return Boolean(citus) && (await citusType(client, "session")) === "distributed";
}

/** The workers registered in the database at `url` (on a test server: its maintenance database). */
export async function registeredWorkers(client: Client): Promise<CitusNode[]> {
  const rows = (
    await client.query<{ nodename: string; nodeport: number }>(
      "select nodename, nodeport from pg_dist_node where groupid <> 0 and noderole = 'primary' order by nodeport",
    )
  ).rows;
  return rows.map((r) => ({ host: r.nodename, port: r.nodeport }));
}
