/**
 * Search over a project's spans (design.md, Search): terms through span_search's trigram and
 * word indexes, filters on the span, an RE2 pattern checked over the candidates. Callers check
 * the caller's membership or key first; this reads one project only.
 */
import { RE2JS } from "re2js";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { loadPolicy } from "@/lib/server/retention";
import { decodeCursor, encodeCursor, type SearchCursor } from "./cursor";
import { hitRowsFor, type SearchHit, toHit } from "./hits";
import type { SearchInput } from "./input";
import { termPatterns } from "./locate";
import { hasIndexedTerm, parseSearchQuery, type SearchTerm } from "./query";
import { countMatches, type MatchKey, newestKeys, rankedKeys } from "./sources";
import { newestWalk, type SearchFilter, searchWhere } from "./sql";

/** Up to this many matches are counted exactly and ranked; past it, newest first and "more than". */
export const RANK_CAP = 1000;
/** A pattern is checked over at most this many candidate spans per page asked for. */
export const REGEX_SCAN_MAX = 5000;
const REGEX_CHUNK = 250;

export interface SearchPage {
  hits: SearchHit[];
  /** eq: exactly count; gt: more than count; gte: at least count (a pattern not checked over every candidate). */
  total: { count: number; relation: "eq" | "gt" | "gte" };
  order: "relevance" | "newest";
  nextCursor: string | null;
  /** With a pattern: candidates checked for this page, and whether that was all of them. */
  scanned?: { spans: number; complete: boolean };
}

function compilePattern(regex: string | undefined): RE2JS | null {
  if (!regex) return null;
  try {
    return RE2JS.compile(regex);
  } catch (error) {
    throw new AppError("VALIDATION_FAILED", "The pattern is not an RE2 expression", {
      fields: [{ path: "regex", message: error instanceof Error ? error.message : "not RE2" }],
    });
  }
}

async function filterOf(projectId: string, input: SearchInput, now: Date): Promise<SearchFilter> {
  const outcomes = input.outcome === undefined ? undefined : [input.outcome].flat();
  return {
    projectId,
    now,
    horizonDays: input.provenance ? (await loadPolicy(db(), projectId)).evidenceHorizonDays : 0,
    ...(input.session ? { sessionId: input.session } : {}),
    ...(input.agent ? { agentId: input.agent === "main" ? null : input.agent.slice("sub:".length) } : {}),
    ...(input.kind ? { kind: input.kind } : {}),
    ...(input.class ? { class: input.class } : {}),
    ...(input.provenance ? { provenance: input.provenance } : {}),
    ...(outcomes ? { outcomes } : {}),
    ...(input.from ? { from: new Date(input.from) } : {}),
    ...(input.to ? { to: new Date(input.to) } : {}),
  };
}

export async function searchSpans(projectId: string, input: SearchInput, now = new Date()): Promise<SearchPage> {
  const terms = parseSearchQuery(input.q ?? "");
  const pattern = compilePattern(input.regex);
  if (!pattern && !input.session && !hasIndexedTerm(terms))
    throw new AppError("VALIDATION_FAILED", "Search for at least 3 characters, or within one session", {
      fields: [{ path: "q", message: "at least 3 characters" }],
    });
  const filter = await filterOf(projectId, input, now);
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
  const where = searchWhere(terms, filter);
  // Where each hit matched: the pattern's match when there is one, else the earliest term's,
  // else (a phrase the local word split placed differently) any of the phrase's words.
  const words = terms.flatMap((t) => (t.kind === "phrase" ? t.words.map((text) => ({ kind: "substring" as const, text })) : []));
  const placements = [...(pattern ? [[pattern]] : []), termPatterns(terms), termPatterns(words)];
  if (pattern) return patternPage(where, pattern, placements, input, cursor);
  return termsPage(where, filter, terms, placements, input, cursor);
}

async function termsPage(
  where: Prisma.Sql,
  filter: SearchFilter,
  terms: readonly SearchTerm[],
  placements: ReadonlyArray<readonly RE2JS[]>,
  input: SearchInput,
  cursor: SearchCursor | undefined,
): Promise<SearchPage> {
  const n = await countMatches(where, RANK_CAP);
  const total = n > RANK_CAP ? { count: RANK_CAP, relation: "gt" as const } : { count: n, relation: "eq" as const };
  const order = cursor?.order ?? (n > RANK_CAP ? "newest" : "relevance");
  const limit = input.limit;
  let keys: MatchKey[];
  let offset = 0;
  if (order === "relevance") {
    // Ranked in each source, merged, then the page cut: at most RANK_CAP keys are read, never bodies.
    offset = cursor?.order === "relevance" ? cursor.offset : 0;
    keys = (await rankedKeys(where, terms, offset + limit + 1)).slice(offset);
  } else {
    // Many matches (or a page after the first of them): walked newest first, unless within one session.
    keys = await newestKeys(where, cursor, limit + 1, filter.sessionId ? undefined : newestWalk(filter, cursor));
  }
  const more = keys.length > limit;
  const page = await hitRowsFor(keys.slice(0, limit));
  const last = page.at(-1);
  const next: SearchCursor | null =
    !more || !last
      ? null
      : order === "relevance"
        ? { order, offset: offset + limit }
        : { order, at: last.occurred_at.toISOString(), sessionId: last.session_id, spanId: last.span_id };
  return { hits: page.map((row) => toHit(row, placements)), total, order, nextCursor: next ? encodeCursor(next) : null };
}

/**
 * A pattern over the candidates the terms and filters select, newest first, a chunk at a time:
 * stops at a page of hits or REGEX_SCAN_MAX candidates, and the cursor resumes after the last
 * candidate checked.
 */
async function patternPage(
  where: Prisma.Sql,
  pattern: RE2JS,
  placements: ReadonlyArray<readonly RE2JS[]>,
  input: SearchInput,
  cursor: SearchCursor | undefined,
): Promise<SearchPage> {
  const hits: SearchHit[] = [];
  let after = cursor?.order === "newest" ? cursor : undefined;
  let scanned = 0;
  let complete = false;
  while (hits.length < input.limit && scanned < REGEX_SCAN_MAX) {
    const keys = await newestKeys(where, after, REGEX_CHUNK);
    const rows = await hitRowsFor(keys);
    for (const row of rows) {
      scanned += 1;
      after = { order: "newest", at: row.occurred_at.toISOString(), sessionId: row.session_id, spanId: row.span_id };
      if (pattern.matcher(row.body).find()) {
        hits.push(toHit(row, placements));
        if (hits.length === input.limit) break;
      }
    }
    if (keys.length < REGEX_CHUNK && hits.length < input.limit) {
      complete = true;
      break;
    }
  }
  const relation = complete && !cursor ? "eq" : "gte";
  return {
    hits,
    total: { count: hits.length, relation },
    order: "newest",
    nextCursor: complete || !after ? null : encodeCursor(after),
    scanned: { spans: scanned, complete },
  };
}
