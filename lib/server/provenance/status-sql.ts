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

function col(alias: string, name: string): Prisma.Sql {
  return Prisma.raw(alias ? `${alias}.${name}` : name);
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
  return Prisma.sql`(not ${col(alias, "has_pointer")} or ${col(alias, "original_state")} <> 'HELD')`;
}

export function heldPastTtl(alias: string, now: Date): Prisma.Sql {
  return Prisma.sql`(${col(alias, "has_pointer")} and ${col(alias, "original_state")} = 'HELD' and ${col(alias, "original_expires_at")} <= ${sqlTime(now)})`;
}

/**
 * Conditions on a span row (non-summary) for each status, mutually exclusive; none, lost and
 * expiring are what statusExpression tests in order, durable is the rest written out (null-safe,
 * for a WHERE clause).
 */
export function statusConditions(alias: string, p: StatusParams) {
  const hasPointer = col(alias, "has_pointer");
  const state = col(alias, "original_state");
  const expires = col(alias, "original_expires_at");
  const occurred = col(alias, "occurred_at");
  const now = sqlTime(p.now);
  const horizon = Prisma.sql`${occurred} + ${sqlDays(p.horizonDays)}`;
  return {
    none: Prisma.sql`(not ${hasPointer})`,
    lost: Prisma.sql`(${hasPointer} and (${state} <> 'HELD' or ${expires} <= ${now}))`,
    expiring: Prisma.sql`(${hasPointer} and ${state} = 'HELD' and ${expires} > ${now} and ${expires} < ${horizon})`,
    durable: Prisma.sql`(${hasPointer} and ${state} = 'HELD' and (${expires} is null or (${expires} > ${now} and ${expires} >= ${horizon})))`,
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
  const expires = col(alias, "original_expires_at");
  return Prisma.sql`(${col(alias, "has_pointer")} and ${col(alias, "original_state")} = 'HELD' and (${expires} is null or ${expires} > ${sqlTime(now)}))`;
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
