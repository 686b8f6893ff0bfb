/**
 * The current definition of every SQL function and trigger lives in one file under prisma/sql/:
 * a function with the triggers that fire it. Migrations stay the only way the schema changes (they
 * are history: a function may have been redefined in several of them); these files are where a
 * reader finds today's definition, and `npm run sql:migration` writes the migration for an edited
 * file. A database test holds the two equal: applying every file to a freshly migrated database
 * changes no definition, and every function and trigger there has exactly one file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { singleNodeForm } from "./shard-forms";

export const SQL_SOURCES_DIR = path.resolve(process.cwd(), "prisma", "sql");

export interface SqlSource {
  /** The file's name, e.g. `session_counts_span_insert.sql`. */
  file: string;
  text: string;
  /** What the file defines: `function <name>` and `trigger <table>.<name>` keys. */
  defines: string[];
}

/** Anything that queries: a pg Client, PoolClient or Pool. */
export interface SqlRunner {
  query<R extends object>(text: string): Promise<{ rows: R[] }>;
}

const FUNCTION_NAME = /create\s+or\s+replace\s+function\s+(?:public\.)?"?([a-z_][a-z0-9_]*)"?\s*\(/gi;
const TRIGGER_NAME =
  /create\s+or\s+replace\s+trigger\s+"?([a-z_][a-z0-9_]*)"?[\s\S]*?\bon\s+(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/** The keys a file's text defines (function bodies quote no CREATE statements, so a scan suffices). */
export function definedKeys(text: string): string[] {
  const keys: string[] = [];
  for (const m of text.matchAll(FUNCTION_NAME)) keys.push(`function ${m[1]}`);
  for (const m of text.matchAll(TRIGGER_NAME)) keys.push(`trigger ${m[2]}.${m[1]}`);
  return keys;
}

export function readSqlSources(dir = SQL_SOURCES_DIR): SqlSource[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), "utf8");
      return { file, text, defines: definedKeys(text) };
    });
}

/**
 * Every project function and trigger of the public schema with its definition as the database
 * prints it (extension objects and the internal triggers of foreign keys left out). Keyed as in
 * definedKeys; overloads of one name would share a key, and the project has none.
 */
export async function catalogDefinitions(db: SqlRunner): Promise<Map<string, string>> {
  const functions = await db.query<{ key: string; def: string }>(
    `select 'function ' || p.proname as key, pg_get_functiondef(p.oid) as def
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind in ('f', 'p')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  );
  const triggers = await db.query<{ key: string; def: string }>(
    `select 'trigger ' || c.relname || '.' || t.tgname as key, pg_get_triggerdef(t.oid) as def
       from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal`,
  );
  return new Map([...functions.rows, ...triggers.rows].map((r) => [r.key, r.def]));
}

export interface SourcesDrift {
  /** Objects in the database that no file defines. */
  withoutFile: string[];
  /** Objects that more than one file defines. */
  inSeveralFiles: string[];
  /** Files that define an object the database does not have (a new one, or a stale file). */
  notInDatabase: string[];
  /** Files whose definitions differ from the database's. */
  changed: string[];
}

/**
 * Compares the files with a migrated database: applies them (in their one-node form, shard-forms.ts)
 * inside a transaction that is rolled back, and names every file whose objects came out different.
 * The database is left as it was.
 */
export async function compareWithDatabase(db: SqlRunner, sources: SqlSource[] = readSqlSources()): Promise<SourcesDrift> {
  const owners = new Map<string, string[]>();
  for (const s of sources) for (const key of s.defines) owners.set(key, [...(owners.get(key) ?? []), s.file]);
  await db.query("begin");
  try {
    const before = await catalogDefinitions(db);
    const changed: string[] = [];
    for (const s of sources) {
      await db.query(singleNodeForm(s.text));
      const after = await catalogDefinitions(db);
      if (s.defines.some((key) => after.get(key) !== before.get(key))) changed.push(s.file);
    }
    return {
      withoutFile: [...before.keys()].filter((key) => !owners.has(key)).sort(),
      inSeveralFiles: [...owners].filter(([, files]) => files.length > 1).map(([key]) => key),
      notInDatabase: sources.filter((s) => s.defines.some((key) => !before.has(key))).map((s) => s.file),
      changed,
    };
  } finally {
    await db.query("rollback");
  }
}
