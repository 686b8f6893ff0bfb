/**
 * The project views' one time range travels in the URL (?range=7d, or ?from=…&to=…): links between
 * the views that read it (Overview, Sessions, Refusals, Evidence, Audit) carry it, so a range picked
 * on one is the range of the next. Pure and tested.
 */

/** The search params that are the range. */
export const RANGE_KEYS = ["range", "from", "to"] as const;

/** The project sections, by path under the project, that read the range. */
export const RANGED_SECTIONS: ReadonlySet<string> = new Set(["", "/sessions", "/refusals", "/evidence", "/audit"]);

/** `href` with the range of `current` (a page's search params) added; other params of `current` stay behind. */
export function withViewRange(href: string, current: URLSearchParams | null | undefined): string {
  if (!current) return href;
  const [path, query = ""] = href.split("?", 2) as [string, string?];
  const params = new URLSearchParams(query);
  for (const key of RANGE_KEYS) {
    const value = current.get(key);
    if (value && !params.has(key)) params.set(key, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
