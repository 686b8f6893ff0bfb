/**
 * What a search asks, as the API's query string, the dashboard's URL and the MCP tool carry it.
 */
import { z } from "zod";
import { parseWith, text } from "@/lib/core/validation";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS } from "@/lib/evidence/types";

export const SEARCH_PAGE_DEFAULT = 20;
export const SEARCH_PAGE_MAX = 50;

/** One value or several (a query string repeats the name, or lists them with commas). */
const outcomes = z.union([z.enum(TOOL_OUTCOMES), z.array(z.enum(TOOL_OUTCOMES)).max(TOOL_OUTCOMES.length)]);

export const SearchInputSchema = z
  .object({
    q: text()
      .max(500)
      .optional()
      .describe(
        'Terms, all of which must match: words found anywhere (`8443` finds `localhost:8443/health`), `word*` for a prefix, `"two words"` for a phrase.',
      ),
    regex: z
      .string()
      .max(500)
      .optional()
      .describe("An RE2 pattern the span's text must match, checked over the spans the terms and filters select."),
    session: z.uuid().optional().describe("Only this session's spans."),
    agent: z
      .string()
      .max(200)
      .regex(/^(main|sub:[^\u0000]+)$/, "Expected main or sub:<agent id>")
      .optional()
      .describe("main, or sub:<agent id> for one subagent's spans."),
    kind: z.enum(SPAN_KINDS).optional(),
    class: z.enum(EVIDENTIAL_CLASSES).optional(),
    provenance: z.enum(PROVENANCE_STATUSES).optional().describe("Provenance status now (spans other than summaries)."),
    outcome: outcomes.optional().describe("Only calls (and their results) that ended so."),
    from: z.iso.datetime({ offset: true }).optional().describe("Spans that occurred at or after (ISO 8601)."),
    to: z.iso.datetime({ offset: true }).optional().describe("Spans that occurred before (ISO 8601, exclusive)."),
    limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
    cursor: z.string().max(400).optional().describe("nextCursor of the page before."),
  })
  .refine((input) => (input.q ?? "").trim() !== "" || (input.regex ?? "") !== "", {
    message: "Give search terms (q), a pattern (regex), or both",
    path: ["q"],
  });

export type SearchInput = z.output<typeof SearchInputSchema>;

/**
 * A search as a page's URL carries it (Next's search params: a repeated key is a list). Empty
 * values (a GET form's untouched fields) mean "no filter"; outcome keeps every value, the others
 * their first. Anything that does not fit is a VALIDATION_FAILED naming its field.
 */
export function parseSearchParams(raw: Record<string, string | string[] | undefined>): SearchInput {
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(raw)) {
    const all = [value ?? []].flat().filter((v) => v !== "");
    if (all.length > 0) values[key] = key === "outcome" ? all : all[0]!;
  }
  return parseWith(SearchInputSchema, values, "The search");
}
