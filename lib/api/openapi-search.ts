/** The OpenAPI document's search path (GET /api/v1/search). */
import { SEARCH_PAGE_MAX, SearchInputSchema } from "@/lib/server/search";
import { errors, ok, queryParameters, responseSchema } from "./openapi-parts";
import { SearchPageSchema } from "./search-schemas";

export const searchPaths = {
  "/api/v1/search": {
    get: {
      summary: "Search the project's spans: words, phrases, prefixes, substrings, an RE2 pattern",
      description:
        "Every term of q must match: a plain term anywhere in a span's text, case-insensitive (`8443` finds " +
        '`localhost:8443/health`), `word*` a word starting so (`/var/log*`), `"two words"` a phrase. regex is an RE2 ' +
        "pattern checked over the spans the terms and filters select, newest first, at most 5,000 a page. Search " +
        "reads span bodies (messages, tool calls with their input, results, summaries) while their originals are " +
        "held, the first 64 KiB of each; once the sweeper deletes an original, what is kept of its span (tool name " +
        "and evidence atoms: paths, commands, ids, URLs). Up to 1,000 matches are ranked (whole-word matches " +
        "first) and counted exactly; past that, newest first and total.relation gt. Each hit's byteStart and " +
        "byteEnd name the match in the original's bytes (GET /api/v1/spans/{id}/original); a hit marked " +
        "original EXPIRED matched in what is kept and has none. " +
        `At most ${SEARCH_PAGE_MAX} hits a page; ` +
        "nextCursor asks for the next.",
      parameters: queryParameters(SearchInputSchema),
      responses: {
        "200": ok("A page of hits", responseSchema(SearchPageSchema)),
        ...errors(401, 403, 422, 429),
      },
    },
  },
};
