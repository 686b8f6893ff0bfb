import { describe, expect, it } from "vitest";
import { functionDefinitions, hasShardForm, singleNodeForm } from "./shard-forms";
import { readSqlSources } from "./sql-sources";

const RECOUNT = `CREATE OR REPLACE FUNCTION public.f()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  differ boolean;
BEGIN
  EXECUTE custodian_shard_sql(anchor, $q$UPDATE {session} se SET n = custodian_horizon_days($1) + $2
     WHERE se.project_id = $1$q$)
    USING project, days;
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$SELECT EXISTS (SELECT 1 FROM new_rows n JOIN {span} s ON s.id = n.span_id)$q$) INTO differ;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER f AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION f();`;

describe("a trigger function's two forms", () => {
  it("runs each statement as static SQL on one node: tables named, parameters as the variables of USING, INTO kept", () => {
    const one = singleNodeForm(RECOUNT);
    expect(one).toContain(`  UPDATE session se SET n = custodian_horizon_days(project) + days
     WHERE se.project_id = project;`);
    expect(one).toContain("  SELECT EXISTS (SELECT 1 FROM new_rows n JOIN span s ON s.id = n.span_id) INTO differ;");
    expect(one).not.toContain("custodian_shard_sql");
    expect(hasShardForm(RECOUNT)).toBe(true);
    expect(singleNodeForm(one)).toBe(one);
  });

  it("refuses a parameter that no USING variable gives", () => {
    expect(() => singleNodeForm("EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {span} WHERE id = $1$q$);")).toThrow(
      /\$1 without a USING variable/,
    );
  });

  it("finds the function's definition and body apart from its triggers", () => {
    const [fn, ...rest] = functionDefinitions(RECOUNT);
    expect(rest).toEqual([]);
    expect(fn?.name).toBe("f");
    expect(fn?.definition.endsWith("$function$;")).toBe(true);
    expect(fn?.body.startsWith("\nDECLARE")).toBe(true);
  });

  it("leaves no statement of prisma/sql planned at each run on one node", () => {
    const withForms = readSqlSources().filter((s) => hasShardForm(s.text));
    expect(withForms.length).toBeGreaterThan(20);
    for (const source of withForms) {
      const one = singleNodeForm(source.text);
      expect(one, source.file).not.toMatch(/EXECUTE\s+custodian_shard_sql|\{[a-z_]+\}|\$q\$/);
      expect(functionDefinitions(source.text).length, source.file).toBe(1);
    }
  });
});
