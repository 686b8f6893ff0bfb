/**
 * The two forms of a trigger function whose statements read or write other session tables
 * (docs/citus.md, "Migrations on Citus"). Its one source, a file of prisma/sql, writes each such
 * statement through custodian_shard_sql with the session tables in braces:
 *
 *   EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} ... WHERE project_id = $1$q$) USING project;
 *
 * That is the Citus form, run as written on a cluster: there the trigger fires on a shard, and each
 * {table} becomes the colocated shard. One node runs the statement as static SQL instead,
 * `UPDATE session ... WHERE project_id = project;`, which PL/pgSQL plans once per connection
 * rather than at every run (an EXECUTE is planned each time: ingest on one node was 11% slower in
 * that form). The migrations hold the one-node form (singleNodeForm, written by
 * `npm run sql:migration`); `custodian citus distribute` installs the files' form on a cluster
 * (lib/db/citus.ts).
 */

/** `EXECUTE custodian_shard_sql(<anchor>, $q$<statement>$q$) [INTO <variable>] [USING <variables>]`. */
const SHARD_STATEMENT =
  /EXECUTE\s+custodian_shard_sql\(\s*[a-z_]+\s*,\s*\$q\$([\s\S]*?)\$q\$\s*\)(\s+INTO\s+[a-z_]+)?(?:\s+USING\s+([a-z_]+(?:\s*,\s*[a-z_]+)*))?/gi;

/**
 * A file's one-node form: each statement written through custodian_shard_sql as the static
 * statement it stands for (tables without braces, `$n` as the n-th variable of its USING, its INTO
 * after it). A text without such statements comes back as it is.
 */
export function singleNodeForm(text: string): string {
  return text.replace(SHARD_STATEMENT, (_all, statement: string, into: string | undefined, using: string | undefined) => {
    const args = using ? using.split(",").map((a) => a.trim()) : [];
    const body = statement.replace(/\{([a-z_]+)\}/g, "$1").replace(/\$(\d+)(?!\d)/g, (ref, n: string) => {
      const arg = args[Number(n) - 1];
      if (!arg) throw new Error(`${ref} without a USING variable in: ${statement.slice(0, 80)}`);
      return arg;
    });
    return `${body}${into ?? ""}`;
  });
}

/** True when the file writes some statement through custodian_shard_sql (it has two forms). */
export function hasShardForm(text: string): boolean {
  return singleNodeForm(text) !== text;
}

/** The `CREATE OR REPLACE FUNCTION ... $function$;` statements of a file (its triggers left out). */
export function functionDefinitions(text: string): { name: string; definition: string; body: string }[] {
  const found: { name: string; definition: string; body: string }[] = [];
  const pattern =
    /CREATE\s+OR\s+REPLACE\s+FUNCTION\s+(?:public\.)?([a-z_][a-z0-9_]*)\s*\([\s\S]*?\sAS\s+\$function\$([\s\S]*?)\$function\$;?/gi;
  for (const m of text.matchAll(pattern)) found.push({ name: m[1] as string, definition: m[0], body: m[2] as string });
  return found;
}
