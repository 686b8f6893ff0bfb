import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { atRiskFunction } from "./at-risk-sql";
import { uncheckedFunction } from "./unchecked-sql";
import { GRID_CODES, gridCodeFunction, STATUS_CODES, statusConditions } from "./status-sql";

// One rule, two places it runs: the SQL function and the queries' conditions are both written from
// STATUS_RULE. lib/db/sql-sources.db.test.ts holds the file equal to the migrations; this holds it
// equal to the rule, so an edit on either side alone fails one of the two.
describe("the provenance status rule", () => {
  it("prisma/sql/custodian_grid_code.sql is the function written from the rule (npm run sql:migration writes it)", () => {
    const file = readFileSync(path.resolve("prisma", "sql", "custodian_grid_code.sql"), "utf8");
    expect(file).toBe(gridCodeFunction());
  });

  it("prisma/sql/custodian_span_at_risk.sql is the function written from the rule (npm run sql:migration writes it)", () => {
    const file = readFileSync(path.resolve("prisma", "sql", "custodian_span_at_risk.sql"), "utf8");
    expect(file).toBe(atRiskFunction());
    expect(file).toContain("AND expires < occurred + make_interval(days => horizon_days), false)");
  });

  it("prisma/sql/custodian_span_unchecked.sql is the function written from the rule (npm run sql:migration writes it)", () => {
    const file = readFileSync(path.resolve("prisma", "sql", "custodian_span_unchecked.sql"), "utf8");
    expect(file).toBe(uncheckedFunction());
  });

  it("grid codes name the statuses in STATUS_CODES' order, weakest first", () => {
    const codes: Record<string, number> = GRID_CODES;
    for (const [status, code] of Object.entries(codes)) if (status !== "DURABLE_ALWAYS") expect(STATUS_CODES[code]).toBe(status);
    expect(GRID_CODES.DURABLE_ALWAYS).toBe(STATUS_CODES.length);
  });

  it("the conditions spell the rule's clauses over the row's columns", () => {
    const c = statusConditions("s", { now: new Date("2026-01-02T03:04:05.678Z"), horizonDays: 400 });
    expect(c.expiring.sql).toBe(
      "(s.has_pointer and s.original_state = 'HELD' and s.original_expires_at > timestamp '2026-01-02 03:04:05.678' and s.original_expires_at < s.occurred_at + interval '400 days')",
    );
    expect(gridCodeFunction()).toContain("WHEN expires < occurred + make_interval(days => horizon_days) THEN 2");
  });
});
