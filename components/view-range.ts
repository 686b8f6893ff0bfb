/**
 * The project views' one time range travels in the URL (?range=7d, or ?from=…&to=…): links between
 * the views that read it (Overview, Sessions, Refusals, Evidence, Audit) carry it, so a range picked
 * on one is the range of the next. Pure and tested.
 */

import { RANGES } from "./charts/overview-series";

/** The search params that are the range. */
export const RANGE_KEYS = ["range", "from", "to"] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Whether a value of one of RANGE_KEYS is a range: pages outside the ranged views use the same
 * names for other things (a span page's ?from=12&to=30 is a byte range), which must not travel on
 * as days the next list would refuse.
 */
function isRangeValue(key: (typeof RANGE_KEYS)[number], value: string): boolean {
  return key === "range" ? (RANGES as readonly string[]).includes(value) : DAY.test(value);
}

/** The project sections, by path under the project, that read the range. */
export const RANGED_SECTIONS: ReadonlySet<string> = new Set(["", "/sessions", "/refusals", "/evidence", "/audit"]);

/** `href` with the range of `current` (a page's search params) added; other params of `current` stay behind. */
export function withViewRange(href: string, current: URLSearchParams | null | undefined): string {
  if (!current) return href;
  const [path, query = ""] = href.split("?", 2) as [string, string?];
  const params = new URLSearchParams(query);
  for (const key of RANGE_KEYS) {
    const value = current.get(key);
    if (value && isRangeValue(key, value) && !params.has(key)) params.set(key, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
