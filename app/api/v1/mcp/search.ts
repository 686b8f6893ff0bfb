/**
 * MCP `search_transcripts`: GET /api/v1/search for an agent, the same hits, so it can find what its
 * own compaction dropped and fetch it with get_original (byteStart and byteEnd as the hit gives them).
 */
import { SEARCH_PAGE_MAX, SearchInputSchema, type SearchPage, searchSpans } from "@/lib/server/search";
import { defineTool, toolResult as result } from "./tool-calls";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** One line a hit, for a model to read: where, what kind, and the match in its context. */
function hitsText(page: SearchPage): string {
  const total = `${page.total.relation === "eq" ? "" : page.total.relation === "gt" ? "more than " : "at least "}${page.total.count}`;
  const lines = page.hits.map(
    (h) =>
      `- span ${h.spanId} (session ${h.sessionExternalId}, seq ${h.seq ?? "-"}, ${h.kind}${h.toolName ? ` ${h.toolName}` : ""}) ` +
      `${h.original === "EXPIRED" ? "original expired, matched in what is kept" : `bytes ${h.byteStart ?? "?"}-${h.byteEnd ?? "?"}`}: ` +
      `${h.snippet.before}[${h.snippet.match}]${h.snippet.after}`,
  );
  const next = page.nextCursor ? `\nMore: call search_transcripts again with cursor=${page.nextCursor}` : "";
  return `${total} matching spans, ${page.order} first\n${lines.join("\n")}${next}`;
}

export const searchTranscriptsTool = (caller: { projectId: string }) =>
  defineTool({
    name: "search_transcripts",
    title: "Search transcripts",
    description:
      "Find spans of this project's transcripts, as GET /api/v1/search does: q holds terms that must all match " +
      '(a plain term anywhere, case-insensitive: 8443 finds localhost:8443/health; word* a prefix; "two words" a ' +
      "phrase); regex an RE2 pattern checked over those candidates; filters session (id), agent (main or " +
      "sub:<id>), kind, class, provenance, outcome, from/to (ISO 8601). Each hit names the span, its session and " +
      "seq, and byteStart/byteEnd of the match in the original: fetch the verbatim bytes with get_original. " +
      "A hit with original EXPIRED matched in what is kept of a span whose original was deleted (tool name, " +
      "evidence atoms): it has no byte range, and get_original answers that the original is gone. " +
      `At most ${SEARCH_PAGE_MAX} hits a call; nextCursor continues.`,
    annotations: { title: "Search transcripts", ...READ_ONLY },
    input: SearchInputSchema,
    call: async (input) => {
      const page = await searchSpans(caller.projectId, input);
      return result({ ...page }, hitsText(page));
    },
  });
