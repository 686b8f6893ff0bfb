/**
 * The range the overview's "spans at risk ahead" hands to the retention page (?range= or
 * ?from=&to=): the page's at-risk list then shows the spans of the sessions active in it, the ones
 * that chart projects. A value that is not a range is ignored (the list shows every session's).
 */
import { formatDay } from "@/components/format";
import { dayParam, rangeParam, timeWindow } from "@/lib/core/time-range";
import type { RawSearchParams } from "@/lib/server/dashboard";

export function atRiskRange(
  search: RawSearchParams,
  now: Date,
): { window: { since?: Date; until?: Date }; words: string } | null {
  const one = (key: string) => {
    const value = search[key];
    return typeof value === "string" ? value : undefined;
  };
  const range = rangeParam.safeParse(one("range")).data;
  const from = dayParam.safeParse(one("from")).data;
  const to = dayParam.safeParse(one("to")).data;
  if (!range && !from && !to) return null;
  const year = now.getUTCFullYear();
  if (from || to) {
    const words = `from ${from ? formatDay(from, year) : "the first day"} to ${to ? formatDay(to, year) : "today"}`;
    return { window: timeWindow({ from, to }, now), words };
  }
  const words = `in the last ${range === "24h" ? "24 hours" : `${Number.parseInt(range!, 10)} days`}`;
  return { window: timeWindow({ range }, now), words };
}
