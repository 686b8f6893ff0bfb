import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareWithDatabase, readSqlSources } from "./sql-sources";
import { ownerDatabaseUrl } from "./test-database";

// The files in prisma/sql and the migrations describe one schema: a drift either way fails here.
describe("prisma/sql against the migrated database", () => {
  const owner = new pg.Client({ connectionString: ownerDatabaseUrl() });
  beforeAll(() => owner.connect());
  afterAll(() => owner.end());

  it("holds every function and trigger exactly once, each as the migrations left it", async () => {
    const sources = readSqlSources();
    expect(sources.length).toBeGreaterThan(30);
    expect(await compareWithDatabase(owner, sources)).toEqual({
      withoutFile: [],
      inSeveralFiles: [],
      notInDatabase: [],
      changed: [],
    });
  });

  it("names a file edited without a migration, one missing, one defined twice, and one new", async () => {
    const sources = readSqlSources();
    const edited = sources.find((s) => s.file === "session_counts_span_insert.sql");
    const removed = sources.find((s) => s.file === "audit_log_is_append_only.sql");
    if (!edited || !removed) throw new Error("the files this test edits are gone: pick others");
    const drifted = sources
      .filter((s) => s !== removed)
      .map((s) => (s === edited ? { ...s, text: s.text.replace("RETURN NULL;", "RETURN NULL; -- edited") } : s));
    const copy = { ...edited, file: "zz_copy.sql" };
    const added = {
      file: "zz_new.sql",
      text: "CREATE OR REPLACE FUNCTION public.zz_new() RETURNS int LANGUAGE sql AS $$ select 1 $$;",
      defines: ["function zz_new"],
    };
    const drift = await compareWithDatabase(owner, [...drifted, copy, added]);
    expect(drift.changed).toEqual(["session_counts_span_insert.sql", "zz_new.sql"]);
    expect(drift.withoutFile).toEqual(expect.arrayContaining(["function audit_log_is_append_only"]));
    expect(drift.withoutFile.some((key) => key.startsWith("trigger audit_log."))).toBe(true);
    expect(drift.inSeveralFiles).toEqual(
      expect.arrayContaining(["function session_counts_span_insert", "trigger span.session_counts_span_insert"]),
    );
    expect(drift.notInDatabase).toEqual(["zz_new.sql"]);
    // Rolled back: the database is as the migrations left it.
    expect((await compareWithDatabase(owner, sources)).changed).toEqual([]);
  });
});
