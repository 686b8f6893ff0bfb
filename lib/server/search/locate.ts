/**
 * Where a hit matched, in its projection text, and the snippet around it. The database says a
 * span matches; this finds the first place it does (the earliest match of any term, or of the
 * RE2 pattern), so that a hit carries the byte range of the match in the original.
 */
import { RE2JS } from "re2js";
import { byteOffsetAt, readable } from "./byte-offsets";
import type { SearchTerm } from "./query";

export interface MatchRange {
  /** UTF-16 positions in the projection text. */
  start: number;
  end: number;
}

export interface Snippet {
  before: string;
  match: string;
  after: string;
}

const NOT_WORD = "[^\\p{L}\\p{N}_]";

function termPattern(term: SearchTerm): RE2JS {
  const flags = RE2JS.CASE_INSENSITIVE;
  if (term.kind === "substring") return RE2JS.compile(RE2JS.quote(term.text), flags);
  if (term.kind === "prefix") return RE2JS.compile(`(?:^|${NOT_WORD})(${RE2JS.quote(term.text)})`, flags);
  return RE2JS.compile(`(${term.words.map((w) => RE2JS.quote(w)).join(`${NOT_WORD}+`)})`, flags);
}

/** The patterns that find each term in a text (compiled once per search). */
export function termPatterns(terms: readonly SearchTerm[]): RE2JS[] {
  return terms.map(termPattern);
}

/** The earliest match of any pattern in text; a pattern with a group reports that group. */
export function firstMatch(text: string, patterns: readonly RE2JS[]): MatchRange | null {
  let best: MatchRange | null = null;
  for (const pattern of patterns) {
    const m = pattern.matcher(text);
    if (!m.find()) continue;
    const group = pattern.groupCount() > 0 ? 1 : 0;
    const range = { start: m.start(group), end: m.end(group) };
    if (!best || range.start < best.start) best = range;
  }
  return best;
}

const SNIPPET_SIDE = 80;

/** Up to 80 characters either side of the match, whitespace runs as one space, raw bytes as U+FFFD. */
export function snippetAround(text: string, range: MatchRange): Snippet {
  const flat = (s: string) => readable(s).replace(/[\s\u0000-\u001f\u007f]+/g, " ");
  let from = Math.max(0, range.start - SNIPPET_SIDE);
  let to = Math.min(text.length, range.end + SNIPPET_SIDE);
  // Never cut a surrogate pair in two.
  if (from > 0 && /[\udc00-\udfff]/.test(text[from] ?? "")) from -= 1;
  if (to < text.length && /[\udc00-\udfff]/.test(text[to] ?? "")) to += 1;
  return {
    before: (from > 0 ? "…" : "") + flat(text.slice(from, range.start)),
    match: flat(text.slice(range.start, range.end)),
    after: flat(text.slice(range.end, to)) + (to < text.length ? "…" : ""),
  };
}

/** A match's byte range in the original. */
export function byteRange(text: string, range: MatchRange): { byteStart: number; byteEnd: number } {
  const byteStart = byteOffsetAt(text, range.start);
  return { byteStart, byteEnd: byteStart + byteOffsetAt(text.slice(range.start, range.end), range.end - range.start) };
}
