/**
 * The one time range of a project's views (Overview, Sessions, Refusals, Evidence, Audit): a
 * preset in the URL (?range=7d, the overview's ranges) or whole UTC days (?from=…&to=…, inclusive),
 * carried between those pages by their links. `from`/`to` are finer than a preset: given both
 * ways, the days win. The overview counts in its preset (7 days unless the URL names another); the
 * lists show every time unless the URL names one.
 */
import { z } from "zod";

/** The presets: the overview's ranges, and what a list's "Within" offers. */
export const TIME_RANGES = ["24h", "7d", "30d", "90d"] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const RANGE_MS: Record<TimeRange, number> = {
  "24h": 24 * HOUR_MS,
  "7d": 7 * 24 * HOUR_MS,
  "30d": 30 * 24 * HOUR_MS,
  "90d": 90 * 24 * HOUR_MS,
};

/** The `range` field of a list's query schema. */
export const rangeParam = z.enum(TIME_RANGES, { error: `Expected one of ${TIME_RANGES.join(", ")}` });

/**
 * A whole UTC day in the URL (?from=2026-12-01), as the lists' `from` and `to` take it: a real
 * calendar day, in years a timestamp parameter round-trips through Postgres without surprises.
 */
export const dayParam = z.iso
  .date({ error: "Expected a date as YYYY-MM-DD" })
  .refine((day) => day >= "1900-01-01" && day <= "9998-12-31", "Expected a year from 1900 to 9998");

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * Where a preset starts, as the overview counts it in buckets: the last 24 hours are the current
 * hour and the 23 before it, the last N days the current UTC day and the N - 1 before it. A list
 * linked from the overview with its range shows what the overview counted, no more.
 */
export function presetStart(range: TimeRange, now: Date): Date {
  const t = now.getTime();
  if (range === "24h") return new Date(t - (t % HOUR_MS) - (RANGE_MS[range] - HOUR_MS));
  return new Date(t - (t % DAY_MS) - (RANGE_MS[range] - DAY_MS));
}

/** The instants a view's range covers, [since, until); either end open when the URL leaves it so. */
export function timeWindow(
  q: { range?: TimeRange | undefined; from?: string | undefined; to?: string | undefined },
  now: Date,
): { since?: Date; until?: Date } {
  const since = q.from ? dayStart(q.from) : q.range ? presetStart(q.range, now) : undefined;
  return { since, until: q.to ? new Date(dayStart(q.to).getTime() + DAY_MS) : undefined };
}

/** The first UTC day a preset reaches back to ("2026-11-30" for 7d on Dec 6): where a form of days starts it. */
export function rangeStartDay(range: TimeRange, now: Date): string {
  return presetStart(range, now).toISOString().slice(0, 10);
}
