/**
 * "At risk before its horizon" in SQL, once: custodian_span_at_risk (prisma/sql), the clock-free
 * part of isAtRisk and atRiskWhateverTheClock in lib/evidence/at-risk.ts. Its file is written from
 * STATUS_RULE.beforeHorizon, the clause the grid's EXPIRING is made of, by `npm run sql:migration`
 * (status-sql.test.ts fails while the file and the rule differ). The session counters (triggers)
 * and the retention page's list call it; the counters of held expiries keep the same test in days
 * (slackBeforeHorizon). expiry-rules.db.test.ts holds all of them equal to the pure engine.
 */
import { Prisma } from "@/lib/db/generated/client";
import { STATUS_RULE, type StatusFacts } from "./status-sql";

/** The original's bytes are still there (found damaged too): what a pin or an extension can keep. */
const BYTES_HELD = "('HELD', 'HASH_MISMATCH')";

/** custodian_span_at_risk's file, generated from STATUS_RULE (see the file's head). */
export function atRiskFunction(): string {
  const f: StatusFacts = {
    hasPointer: "true",
    state: "state",
    expires: "expires",
    horizon: "occurred + make_interval(days => horizon_days)",
  };
  return `-- custodian_span_at_risk: its current definition (how to change it: prisma/sql/README.md).
-- Written from STATUS_RULE in lib/server/provenance/status-sql.ts (at-risk-sql.ts): edit the rule there, not here.

CREATE OR REPLACE FUNCTION public.custodian_span_at_risk(state "OriginalState", expires timestamp without time zone, cls "EvidentialClass", occurred timestamp without time zone, horizon_days integer)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT COALESCE(state IN ${BYTES_HELD} AND cls <> 'NARRATIVE' AND ${STATUS_RULE.beforeHorizon(f)}, false)
$function$;
`;
}

/**
 * custodian_span_at_risk over span row `alias`'s copied facts (the expiry is null when pinned), with
 * the evidence horizon in days given as SQL.
 */
export function spanAtRisk(alias: string, horizonDays: Prisma.Sql): Prisma.Sql {
  const a = (column: string) => Prisma.raw(`${alias}.${column}`);
  return Prisma.sql`custodian_span_at_risk(${a("original_state")}, ${a("original_expires_at")}, ${a("class")}, ${a("occurred_at")}, ${horizonDays})`;
}

/**
 * The expiry before the horizon, counted in whole days: custodian_slack_days(expiry, occurred) is
 * below the horizon in days exactly when expiry < occurred + that many days (the horizon is whole
 * days, so the floor changes nothing). For the trigger-kept counters of held expiries
 * (span_expiry_count), which keep the slack rather than the two instants.
 */
export function slackBeforeHorizon(slackDays: Prisma.Sql, horizonDays: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${slackDays} < ${horizonDays})`;
}
