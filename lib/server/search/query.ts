/**
 * A search box's text as terms. Plain words are found anywhere in a span (case-insensitive
 * substrings: `8443` inside `localhost:8443/health`); `word*` is a word starting so (a path
 * prefix such as `/var/log*`); `"two words"` is a phrase, its words next to each other. Every
 * term must match. Pure: the SQL and the highlight are built from what this returns.
 */
import { AppError } from "@/lib/core/errors";

export type SearchTerm =
  | { kind: "substring"; text: string }
  | { kind: "prefix"; text: string }
  | { kind: "phrase"; text: string; words: string[] };

export const QUERY_MAX_TERMS = 8;
/** A substring shorter than a trigram cannot be looked up in the index, only checked. */
export const SUBSTRING_MIN = 3;

const TOKEN = /"([^"]*)"?|(\S+)/g;
/** Words as the phrase search's parser splits them, near enough to check a phrase locally. */
const WORD = /[\p{L}\p{N}_]+(?:[./:@-][\p{L}\p{N}_]+)*/gu;

export function parseSearchQuery(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const m of q.matchAll(TOKEN)) {
    if (m[1] !== undefined) {
      const text = m[1].trim();
      const words = text.match(WORD) ?? [];
      if (words.length === 0) continue;
      terms.push(words.length === 1 && text === words[0] ? { kind: "substring", text } : { kind: "phrase", text, words });
    } else if (m[2] !== undefined) {
      const raw = m[2];
      if (raw.length > 1 && raw.endsWith("*")) terms.push({ kind: "prefix", text: raw.replace(/\*+$/, "") });
      else if (raw !== "*") terms.push({ kind: "substring", text: raw });
    }
  }
  if (terms.length > QUERY_MAX_TERMS)
    throw new AppError("VALIDATION_FAILED", `A search takes at most ${QUERY_MAX_TERMS} terms`, {
      fields: [{ path: "q", message: `at most ${QUERY_MAX_TERMS} terms` }],
    });
  return terms;
}

/** Whether some term can be looked up in an index (otherwise only filters narrow the spans read). */
export function hasIndexedTerm(terms: readonly SearchTerm[]): boolean {
  return terms.some((t) => t.kind !== "substring" || [...t.text].length >= SUBSTRING_MIN);
}
