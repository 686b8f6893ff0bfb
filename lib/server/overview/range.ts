import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { dayParam, presetStart, TIME_RANGES } from "@/lib/core/time-range";
import { parseWith } from "@/lib/core/validation";

/** The ranges the overview offers; the page keeps the chosen one in its URL (?range=7d). */
export const OVERVIEW_RANGES = TIME_RANGES;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const DEFAULT_OVERVIEW_RANGE: OverviewRange = "7d";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The buckets a range is counted in: hours for the last day, UTC days otherwise. The first bucket
 * starts on a whole hour or day so the last (current) one holds "now"; every time is UTC, as
 * stored.
 */
export interface OverviewWindow {
  range: OverviewRange;
  /** Whole UTC days (both inclusive) the URL named instead of the preset: then they are the window. */
  days?: OverviewDays;
  bucket: "hour" | "day";
  /** ISO start of the first bucket. */
  from: string;
  /** How many buckets, the last one holding `asOf` (or, for days, the last day). */
  buckets: number;
  asOf: string;
  /** The last instant counted, when it is before `asOf` (days that ended before now). */
  until?: string;
}

/** A range of whole UTC days, both inclusive, as the lists take it (?from=2026-12-01&to=2026-12-06). */
export interface OverviewDays {
  from: string;
  to: string;
}

/** The most days the overview charts at once: a year of daily bars, and one more for a leap year. */
export const MAX_OVERVIEW_DAYS = 366;

const RangeSchema = z.object({ range: z.enum(OVERVIEW_RANGES).default(DEFAULT_OVERVIEW_RANGE) });

/** A range from a query string: absent or empty means the default; anything else must be one of OVERVIEW_RANGES (422 naming `range`). */
export function parseOverviewRange(raw: string | undefined | null): OverviewRange {
  return parseWith(RangeSchema, raw ? { range: raw } : {}, "The range").range;
}

/**
 * The overview's range from a URL's `range`, `from` and `to`, as the lists read them: days, when
 * either is given, win over the preset (`to` defaults to today, `from` to six days before `to`).
 * A day off the calendar, `from` after `to`, or more than MAX_OVERVIEW_DAYS days is a 422 naming it.
 */
export function parseOverviewView(
  q: { range?: string | null; from?: string | null; to?: string | null },
  now: Date,
): { range: OverviewRange; days?: OverviewDays } {
  const range = parseOverviewRange(q.range);
  if (!q.from && !q.to) return { range };
  const day = (name: "from" | "to", value: string) => {
    const parsed = dayParam.safeParse(value);
    if (!parsed.success) throw invalid(name, parsed.error.issues[0]!.message);
    return parsed.data;
  };
  const to = q.to ? day("to", q.to) : now.toISOString().slice(0, 10);
  const from = q.from ? day("from", q.from) : new Date(Date.parse(to) - 6 * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw invalid("from", "Expected a day on or before to");
  if (dayCount({ from, to }) > MAX_OVERVIEW_DAYS) throw invalid("from", `Expected at most ${MAX_OVERVIEW_DAYS} days`);
  return { range, days: { from, to } };
}

function invalid(path: string, message: string): AppError {
  return new AppError("VALIDATION_FAILED", "The range is not valid", { fields: [{ path, message }] });
}

function dayCount(days: OverviewDays): number {
  return (Date.parse(days.to) - Date.parse(days.from)) / DAY_MS + 1;
}

export function overviewWindow(range: OverviewRange, now: Date, days?: OverviewDays): OverviewWindow {
  if (Number.isNaN(now.getTime())) throw new RangeError("invalid date");
  const t = now.getTime();
  if (days) {
    const end = Date.parse(days.to) + DAY_MS - 1;
    return {
      range,
      days,
      bucket: "day",
      from: new Date(Date.parse(days.from)).toISOString(),
      buckets: dayCount(days),
      asOf: now.toISOString(),
      ...(end < t ? { until: new Date(end).toISOString() } : {}),
    };
  }
  // The lists read a preset from the same start (presetStart), so a figure's link shows what it counted.
  const from = presetStart(range, now).toISOString();
  if (range === "24h") return { range, bucket: "hour", from, buckets: 24, asOf: now.toISOString() };
  return { range, bucket: "day", from, buckets: Number.parseInt(range, 10), asOf: now.toISOString() };
}
