/**
 * `npm run sql:migration -- <name>`: writes the migration for what was edited in prisma/sql.
 * Migrates a throwaway database with the committed migrations, compares the files with it
 * (lib/db/sql-sources.ts), and writes prisma/migrations/<timestamp>_<name>/migration.sql holding each
 * changed or new file as it is (a trigger function's statements written through custodian_shard_sql
 * as static SQL, its one-node form: lib/db/shard-forms.ts), and a DROP for each function or trigger whose file was removed.
 * The files generated from TypeScript (custodian_grid_code.sql, custodian_span_at_risk.sql and
 * custodian_span_unchecked.sql, from the provenance status rule) are
 * written first, so an edit of the rule lands in its file and then in the migration. Prints what it wrote; writes nothing when the files and the migrations already agree, and fails
 * when one object is defined by two files. Needs the test server (TEST_DATABASE_URL, by default the
 * local PostgreSQL).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { compareWithDatabase, readSqlSources, SQL_SOURCES_DIR, type SourcesDrift } from "@/lib/db/sql-sources";
import { atRiskFunction, gridCodeFunction, uncheckedFunction } from "@/lib/server/provenance";
import { singleNodeForm } from "@/lib/db/shard-forms";
import { createTestDatabase } from "@/lib/db/test-database";
import { runMain } from "@/lib/runner/run-main";

const USAGE = "usage: npm run sql:migration -- <name> (letters, digits and underscores)";

function dropStatement(key: string): string {
  const [kind, name = ""] = key.split(" ");
  if (kind === "trigger") {
    const [table, trigger] = name.split(".");
    return `DROP TRIGGER IF EXISTS ${trigger} ON public.${table};`;
  }
  return `DROP FUNCTION IF EXISTS public.${name};`;
}

/** The migration's text: drops first (triggers before the functions they fire), then the files. */
function migrationText(drift: SourcesDrift, texts: Map<string, string>): string {
  const drops = [
    ...drift.withoutFile.filter((key) => key.startsWith("trigger ")),
    ...drift.withoutFile.filter((key) => key.startsWith("function ")),
  ];
  const files = [...new Set([...drift.notInDatabase, ...drift.changed])].sort();
  const parts = [
    ...(drops.length > 0 ? [`-- Removed from prisma/sql\n${drops.map(dropStatement).join("\n")}`] : []),
    ...files.map((file) => `-- From prisma/sql/${file}\n${singleNodeForm(texts.get(file) ?? "").trimEnd()}`),
  ];
  return `${parts.join("\n\n")}\n`;
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/i.test(name)) throw new Error(USAGE);
  writeFileSync(path.join(SQL_SOURCES_DIR, "custodian_grid_code.sql"), gridCodeFunction());
  writeFileSync(path.join(SQL_SOURCES_DIR, "custodian_span_at_risk.sql"), atRiskFunction());
  writeFileSync(path.join(SQL_SOURCES_DIR, "custodian_span_unchecked.sql"), uncheckedFunction());
  const sources = readSqlSources();
  const database = await createTestDatabase("sqlmigration");
  const client = new pg.Client({ connectionString: database.ownerUrl });
  let drift: SourcesDrift;
  try {
    await client.connect();
    drift = await compareWithDatabase(client, sources);
  } finally {
    await client.end().catch(() => {});
    await database.drop();
  }
  if (drift.inSeveralFiles.length > 0) {
    throw new Error(`defined in more than one file of prisma/sql: ${drift.inSeveralFiles.join(", ")}`);
  }
  if (drift.withoutFile.length + drift.notInDatabase.length + drift.changed.length === 0) {
    console.log("prisma/sql and the migrations agree: nothing to write.");
    return;
  }
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.resolve("prisma", "migrations", `${stamp}_${name}`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "migration.sql"), migrationText(drift, new Map(sources.map((s) => [s.file, s.text]))));
  console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
  for (const file of new Set([...drift.notInDatabase, ...drift.changed])) console.log(`  from prisma/sql/${file}`);
  for (const key of drift.withoutFile) console.log(`  drops ${key}`);
}

runMain(main);
