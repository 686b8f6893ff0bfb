import { z } from "zod";
import { TIME_RANGES } from "@/lib/core/time-range";
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
  bucket: "hour" | "day";
  /** ISO start of the first bucket. */
  from: string;
  /** How many buckets, the last one holding `asOf`. */
  buckets: number;
  asOf: string;
}

const RangeSchema = z.object({ range: z.enum(OVERVIEW_RANGES).default(DEFAULT_OVERVIEW_RANGE) });

/** A range from a query string: absent or empty means the default; anything else must be one of OVERVIEW_RANGES (422 naming `range`). */
export function parseOverviewRange(raw: string | undefined | null): OverviewRange {
  return parseWith(RangeSchema, raw ? { range: raw } : {}, "The range").range;
}

export function overviewWindow(range: OverviewRange, now: Date): OverviewWindow {
  if (Number.isNaN(now.getTime())) throw new RangeError("invalid date");
  const t = now.getTime();
  if (range === "24h") {
    const hourStart = t - (t % HOUR_MS);
    return {
      range,
      bucket: "hour",
      from: new Date(hourStart - 23 * HOUR_MS).toISOString(),
      buckets: 24,
      asOf: now.toISOString(),
    };
  }
  const days = Number.parseInt(range, 10);
  const dayStart = t - (t % DAY_MS);
  return {
    range,
    bucket: "day",
    from: new Date(dayStart - (days - 1) * DAY_MS).toISOString(),
    buckets: days,
    asOf: now.toISOString(),
  };
}
