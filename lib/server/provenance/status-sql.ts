/**
 * Provenance status in SQL, over the original's facts that triggers copy onto each span
 * (original_state, original_expires_at: null when pinned, without TTL or deleted). The same decision as
 * provenanceStatus in lib/evidence/provenance.ts, in the same order:
 *   no pointer -> NONE; original not held (absent, deleted, hash mismatch) -> LOST;
 *   pinned or no TTL -> DURABLE; TTL passed -> LOST; TTL at or after the horizon -> DURABLE;
 *   otherwise EXPIRING.
 * Summaries are not covered here: their status rests on their links (span-status.ts).
 * Tests compare both with the pure functions on varied data (span-status.db.test.ts).
 */
import { Prisma } from "@/lib/db/generated/client";
import type { OriginalFacts } from "@/lib/evidence/types";

/**
 * A timestamp compared with `timestamp(3)` columns, which hold UTC: a typed literal, made from the
 * date alone (digits and separators), so the database reads it once; a cast of a text parameter
 * would be evaluated again for every row.
 */
export function sqlTime(d: Date): Prisma.Sql {
  if (Number.isNaN(d.getTime())) throw new RangeError("invalid date");
  return Prisma.raw(`timestamp '${d.toISOString().replace("T", " ").replace("Z", "")}'`);
}

/** A whole number of days as a literal interval (see sqlTime). */
export function sqlDays(days: number): Prisma.Sql {
  if (!Number.isSafeInteger(days)) throw new RangeError("days must be a whole number");
  return Prisma.raw(`interval '${days} days'`);
}

export interface StatusParams {
  now: Date;
  horizonDays: number;
}

/** The span's original facts as SQL expressions: columns of a row, or a function's arguments. */
export interface StatusFacts {
  hasPointer: string;
  state: string;
  expires: string;
  /** When the span's evidence horizon ends. */
  horizon: string;
}

/**
 * The clock-free clauses of the provenance status rule, each spelled once. The SQL function
 * custodian_grid_code (prisma/sql/custodian_grid_code.sql, written from gridCodeFunction below and
 * held equal to it by status-sql.test.ts) and the conditions the queries filter on (statusConditions,
 * goneWhateverTheClock, heldPastTtl, retrievableWithPointer) are both built from them; the clock only
 * adds "the TTL has passed" (expires <= now). A pair such as held / notHeld is one clause and its
 * complement, kept side by side.
 */
export const STATUS_RULE = {
  noPointer: (f: StatusFacts) => `not ${f.hasPointer}`,
  held: (f: StatusFacts) => `${f.state} = 'HELD'`,
  notHeld: (f: StatusFacts) => `${f.state} <> 'HELD'`,
  noTtl: (f: StatusFacts) => `${f.expires} is null`,
  beforeHorizon: (f: StatusFacts) => `${f.expires} < ${f.horizon}`,
  reachesHorizon: (f: StatusFacts) => `${f.expires} >= ${f.horizon}`,
} as const;

/**
 * The clock's one rule, spelled once: an original's TTL has passed when its expiry is now or earlier
 * (ttlPassedMs in lib/evidence/expiry.ts); `ahead` is its complement for an expiry that is set. A
 * null expiry (pinned, no TTL, or deleted, in the span's copy) satisfies neither. Kept as clauses
 * rather than a SQL function so that a range over an expiry column still reads its index.
 */
export const EXPIRY_RULE = {
  passed: (expires: string, now: string) => `${expires} <= ${now}`,
  ahead: (expires: string, now: string) => `${expires} > ${now}`,
} as const;

/** `expires` (a column of timestamp(3), UTC) has passed at `now`: EXPIRY_RULE.passed with the clock as a literal. */
export function ttlPassedSql(expires: string, now: Date): Prisma.Sql {
  return Prisma.raw(`(${EXPIRY_RULE.passed(expires, sqlTime(now).sql)})`);
}

/** `expires` is set and still ahead of `now` (EXPIRY_RULE.ahead). */
export function ttlAheadSql(expires: string, now: Date): Prisma.Sql {
  return Prisma.raw(`(${EXPIRY_RULE.ahead(expires, sqlTime(now).sql)})`);
}

/** The grid's clock-free codes (span_grid_count.code): STATUS_CODES' indexes, and 4 for "durable whatever the clock". */
export const GRID_CODES = { NONE: 0, LOST: 1, EXPIRING: 2, DURABLE: 3, DURABLE_ALWAYS: 4 } as const;

/**
 * custodian_grid_code's file, generated from STATUS_RULE: the code of a span's cell before the clock
 * is read (EXPIRING and DURABLE become LOST once the TTL passes; the grid moves those at read time).
 * `npm run sql:migration` writes it before comparing the files with the migrations.
 */
export function gridCodeFunction(): string {
  const f: StatusFacts = {
    hasPointer: "has_pointer",
    state: "state",
    expires: "expires",
    horizon: "occurred + make_interval(days => horizon_days)",
  };
  const r = STATUS_RULE;
  return `-- custodian_grid_code: its current definition (how to change it: prisma/sql/README.md).
-- Written from STATUS_RULE in lib/server/provenance/status-sql.ts: edit the rule there, not here.

CREATE OR REPLACE FUNCTION public.custodian_grid_code(has_pointer boolean, state "OriginalState", expires timestamp without time zone, occurred timestamp without time zone, horizon_days integer)
 RETURNS smallint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT (CASE WHEN ${r.noPointer(f)} THEN ${GRID_CODES.NONE}
               WHEN ${r.notHeld(f)} THEN ${GRID_CODES.LOST}
               WHEN ${r.noTtl(f)} THEN ${GRID_CODES.DURABLE_ALWAYS}
               WHEN ${r.beforeHorizon(f)} THEN ${GRID_CODES.EXPIRING}
               ELSE ${GRID_CODES.DURABLE} END)::smallint
$function$;
`;
}

/** The facts of span row `alias` (no alias: the row's own columns), with the horizon `horizonDays` after it occurred. */
function rowFacts(alias: string, horizonDays = 0): StatusFacts {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  return {
    hasPointer: col("has_pointer"),
    state: col("original_state"),
    expires: col("original_expires_at"),
    horizon: `${col("occurred_at")} + ${sqlDays(horizonDays).sql}`,
  };
}

/** The clock's one clause: the TTL has passed. */
function pastTtl(f: StatusFacts, now: Date): string {
  return EXPIRY_RULE.passed(f.expires, sqlTime(now).sql);
}

/** The clock's other clause: the TTL is set and still ahead. */
function ttlAhead(f: StatusFacts, now: Date): string {
  return EXPIRY_RULE.ahead(f.expires, sqlTime(now).sql);
}

/**
 * The parts of the rule that other queries filter on, each spelled once here so that a query and
 * the partial index it reads name the same clause:
 * - gone: no pointer, or the original is not held (NONE or LOST whatever the clock; the SQL
 *   function custodian_span_unchecked and the indexes on it use the same clause);
 * - pastTtl: a pointer to a held original whose TTL has passed (LOST by the clock until the sweeper
 *   deletes the bytes).
 */
export function goneWhateverTheClock(alias: string): Prisma.Sql {
  const f = rowFacts(alias);
  return Prisma.raw(`(${STATUS_RULE.noPointer(f)} or ${STATUS_RULE.notHeld(f)})`);
}

export function heldPastTtl(alias: string, now: Date): Prisma.Sql {
  const f = rowFacts(alias);
  return Prisma.raw(`(${f.hasPointer} and ${STATUS_RULE.held(f)} and ${pastTtl(f, now)})`);
}

/**
 * A pointer to a held original whose TTL is still ahead: the spans whose status the clock will
 * change, each at its expiry (heldPastTtl once it passes). span_held_expiry_idx holds them.
 */
export function heldTtlAhead(alias: string, now: Date): Prisma.Sql {
  const f = rowFacts(alias);
  return Prisma.raw(`(${f.hasPointer} and ${STATUS_RULE.held(f)} and ${ttlAhead(f, now)})`);
}

/**
 * Conditions on a span row (non-summary) for each status, mutually exclusive; none, lost and
 * expiring are what statusExpression tests in order, durable is the rest written out (null-safe,
 * for a WHERE clause).
 */
export function statusConditions(alias: string, p: StatusParams) {
  const f = rowFacts(alias, p.horizonDays);
  const r = STATUS_RULE;
  const current = ttlAhead(f, p.now);
  return {
    none: Prisma.raw(`(${r.noPointer(f)})`),
    lost: Prisma.raw(`(${f.hasPointer} and (${r.notHeld(f)} or ${pastTtl(f, p.now)}))`),
    expiring: Prisma.raw(`(${f.hasPointer} and ${r.held(f)} and ${current} and ${r.beforeHorizon(f)})`),
    durable: Prisma.raw(`(${f.hasPointer} and ${r.held(f)} and (${r.noTtl(f)} or (${current} and ${r.reachesHorizon(f)})))`),
  };
}

/** Statuses by number, weakest first: the grid's codes (span_grid_count.code, 4 aside). */
export const STATUS_CODES = ["NONE", "LOST", "EXPIRING", "DURABLE"] as const;

/** The status of a non-summary span row as text. */
export function statusExpression(alias: string, p: StatusParams): Prisma.Sql {
  const c = statusConditions(alias, p);
  return Prisma.sql`(case when ${c.none} then 'NONE' when ${c.lost} then 'LOST' when ${c.expiring} then 'EXPIRING' else 'DURABLE' end)`;
}

/**
 * The span can be checked as evidence once replaced: a pointer leads to an original that is held
 * and not past its TTL (isCheckable in lib/evidence/questions/answer.ts, for replaced spans).
 */
export function retrievableWithPointer(alias: string, now: Date): Prisma.Sql {
  const f = rowFacts(alias);
  return Prisma.raw(`(${f.hasPointer} and ${STATUS_RULE.held(f)} and (${STATUS_RULE.noTtl(f)} or ${ttlAhead(f, now)}))`);
}

export type OriginalStateValue = "ABSENT" | "DELETED" | "HASH_MISMATCH" | "HELD";

/**
 * The original's facts as the span carries them, for the pure functions. A pin shows as "no
 * expiry", which every pure decision treats the same way (DURABLE, retrievable).
 */
export function originalFromSpan(state: OriginalStateValue, expiresAt: Date | null): OriginalFacts | null {
  if (state === "ABSENT") return null;
  return { present: state !== "DELETED", hashMatches: state === "HELD", expiresAt, pinned: false };
}
