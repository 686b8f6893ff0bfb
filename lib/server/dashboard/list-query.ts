/**
 * What every paged list of the dashboard shares: its query travels in the URL (a GET form, a link
 * to share), is read by a zod schema, and a value that does not fit names its field instead of
 * failing the page.
 */
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { zodFields } from "@/lib/core/validation";

/** Next's search params (repeated keys arrive as arrays), or a URL's. */
export type RawSearchParams = Record<string, string | string[] | undefined>;

const DAY_MS = 86_400_000;

/** A page number in the URL. */
export const pageParam = z.coerce
  .number({ error: "Expected a page number" })
  .int("Expected a whole page number")
  .min(1, "Pages start at 1")
  .max(1_000_000, "Expected a page number up to 1000000")
  .default(1);

/** Free text matched exactly; Postgres text cannot hold NUL, so it is refused here rather than there. */
export const exactText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*$/, "Must not contain NUL");

/** The start of a UTC day, and the start of the day after (for an inclusive `to`). */
export function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
export function dayAfter(day: string): Date {
  return new Date(dayStart(day).getTime() + DAY_MS);
}

/**
 * Reads a list's query from the URL. Empty values (a GET form's untouched fields) mean "no filter";
 * keys in `multi` keep every value (checkboxes), the others their first. Anything that does not fit
 * is a VALIDATION_FAILED naming each field once.
 */
export function parseListQuery<T>(
  schema: z.ZodType<T>,
  raw: RawSearchParams | URLSearchParams,
  what: string,
  multi: readonly string[] = [],
): T {
  const entries: Array<[string, string | string[] | undefined]> =
    raw instanceof URLSearchParams ? [...new Set(raw.keys())].map((k) => [k, raw.getAll(k)]) : Object.entries(raw);
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of entries) {
    const all = [value ?? []].flat().filter((v) => v !== "");
    if (all.length === 0) continue;
    values[key] = multi.includes(key) ? all : all[0]!;
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const fields = zodFields(result.error).filter((f, i, list) => list.findIndex((g) => g.path === f.path) === i);
  throw new AppError("VALIDATION_FAILED", `${what} is not valid: ${fields.map((f) => f.path).join(", ")}`, { fields });
}

/**
 * A list's query as search params for its links: values equal to the defaults (and empty ones) are
 * left out, arrays repeat their key, and the page is set only past the first.
 */
export function listQueryParams(
  query: Record<string, unknown>,
  defaults: Record<string, unknown>,
  change: Record<string, unknown> = {},
): URLSearchParams {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined || value === null || value === "" || value === defaults[key]) continue;
    if (key === "page" && Number(value) <= 1) continue;
    for (const one of [value].flat()) params.append(key, String(one));
  }
  return params;
}

/** A path with its list query, if any. */
export function withQuery(path: string, params: URLSearchParams, hash = ""): string {
  const text = params.toString();
  return `${path}${text ? `?${text}` : ""}${hash}`;
}

/**
 * Rows `[offset, offset + limit)` of a list of `total`, read from whichever end is nearer: an
 * offset walks its index entry by entry, so the last page of 100,000 would otherwise read all of
 * them. `reversed`: read in the opposite order from `offset`, then turn the rows round.
 */
export function nearerEnd(page: number, size: number, total: number): { offset: number; limit: number; reversed: boolean } {
  const offset = (page - 1) * size;
  if (offset <= total / 2) return { offset, limit: size, reversed: false };
  const limit = Math.max(0, Math.min(size, total - offset));
  return { offset: Math.max(0, total - offset - limit), limit, reversed: true };
}

/** Page count and the requested page kept within 1..pages (a page past the end shows the last). */
export function pageWithin(requested: number, total: number, size: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  return { page: Math.min(Math.max(1, requested), pages), pages };
}
