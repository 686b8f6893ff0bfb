/**
 * What GET /api/v1/search and the MCP tool search_transcripts answer: a page of hits, each with
 * the byte range of its match in the original (end exclusive), as GET /api/v1/spans/{id}/original
 * and get_original serve those bytes; a hit whose original expired matched in what is kept of the
 * span, is marked so, and has no byte range.
 */
import { z } from "zod";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { EVIDENTIAL_CLASSES, SPAN_KINDS, TRANSCRIPT_STATES } from "@/lib/evidence/types";
import type { SearchPage } from "@/lib/server/search";

export const SearchHitSchema = z.object({
  spanId: z.string(),
  sessionId: z.string(),
  sessionExternalId: z.string(),
  sessionTitle: z.string().nullable(),
  seq: z.number().int().nullable(),
  kind: z.enum(SPAN_KINDS),
  class: z.enum(EVIDENTIAL_CLASSES),
  toolName: z.string().nullable(),
  outcome: z.enum(TOOL_OUTCOMES).nullable(),
  agentId: z.string().nullable().describe("null: the session's main agent"),
  transcriptState: z.enum(TRANSCRIPT_STATES),
  occurredAt: z.string(),
  byteLength: z.number().int().describe("The original's length in bytes"),
  original: z
    .enum(["HELD", "EXPIRED"])
    .describe(
      "HELD: the match is in the original's bytes. EXPIRED: the original's TTL passed and the sweeper deleted its bytes; the span matched in what Custodian keeps of it (its tool name and evidence atoms: paths, commands, ids, URLs), the snippet shows that, and byteStart and byteEnd are null",
    ),
  byteStart: z
    .number()
    .int()
    .nullable()
    .describe("Where the match starts in the original's bytes; null when the original is gone (EXPIRED)"),
  byteEnd: z.number().int().nullable().describe("Where it ends (exclusive)"),
  snippet: z
    .object({ before: z.string(), match: z.string(), after: z.string() })
    .describe(
      "Plain text around the match (up to 80 characters each side, whitespace as single spaces, bytes that are not text as U+FFFD): render it escaped. For an EXPIRED hit, the kept fact that matched, never the deleted bytes around it",
    ),
  partlyIndexed: z.boolean().describe("The original is longer than the first 64 KiB that search reads"),
});

export const SearchPageSchema = z.object({
  hits: z.array(SearchHitSchema),
  total: z
    .object({ count: z.number().int(), relation: z.enum(["eq", "gt", "gte"]) })
    .describe(
      "eq: exactly count matches; gt: more than count (1,000: past that, newest first); gte: at least count (a pattern checked over part of the candidates)",
    ),
  order: z.enum(["relevance", "newest"]),
  nextCursor: z.string().nullable(),
  scanned: z
    .object({ spans: z.number().int(), complete: z.boolean() })
    .optional()
    .describe("With a pattern: the candidates checked for this page, and whether that was all of them"),
});

// The use case's type and this schema describe one shape: a field added to one and not the other
// fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const pagesAgree: Same<z.output<typeof SearchPageSchema>, SearchPage> = true;
void pagesAgree;
