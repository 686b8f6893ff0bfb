/**
 * Negations: the cue itself is a NEGATION atom ("did not", "no files were changed", "skipped",
 * "0 newly installed"), and in prose it negates the atoms in its scope, so "I did not write
 * /etc/hosts" is not evidence of a write to /etc/hosts.
 *
 * Scope, kept deliberately simple and predictable:
 * - a cue negates what follows it up to the end of its clause ("did not write /etc/hosts");
 * - a passive or adjectival cue ("was not modified", "unchanged") also negates what precedes it
 *   in its clause ("/etc/hosts was not modified");
 * - a clause ends at a sentence end, a semicolon, a line end, or a contrast ("but", "however",
 *   "instead", "then"); a cue inside a quoted string does not reach past the quote.
 * Atoms that carry an effect come from structure (a tool call, a shell command), never from
 * prose, and are never negated: `git commit -m "did not change config"` is still a commit.
 */
import type { Atom } from "../types";
import { CLAUSE_BOUNDARY_RE, NEGATION_RE } from "./patterns";
import { valueOf, type AtomSink } from "./sink";
import type { Text } from "./text";

export interface NegationCue {
  a: number;
  b: number;
  passive: boolean;
}

export interface QuoteRange {
  a: number;
  b: number;
}

/** Adds a NEGATION atom per cue in `t` and returns the cues (Text coordinates), null for none. */
export function collectNegations(t: Text, sink: AtomSink, skip?: ReadonlyArray<readonly [number, number]>): NegationCue[] | null {
  const s = t.s;
  let cues: NegationCue[] | null = null;
  NEGATION_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = NEGATION_RE.exec(s)) !== null) {
    const a = m.index;
    const b = a + m[0].length;
    if (skip && inRanges(skip, a)) continue;
    const v = valueOf(m[0]);
    if (v === null) continue;
    if (sink.add("NEGATION", t, a, b, normalizeCue(v), undefined, m[0]) === null) continue;
    (cues ??= []).push({ a, b, passive: m[1] !== undefined });
  }
  return cues;
}

function inRanges(ranges: ReadonlyArray<readonly [number, number]>, i: number): boolean {
  for (const r of ranges) if (i >= r[0] && i < r[1]) return true;
  return false;
}

const cueCache = new Map<string, string>();

function normalizeCue(v: string): string {
  let n = cueCache.get(v);
  if (n === undefined) {
    n = spellOut(v);
    if (cueCache.size < 4096) cueCache.set(v, n);
  }
  return n;
}

function spellOut(v: string): string {
  return v
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/\bwon't\b/, "will not")
    .replace(/\bshan't\b/, "shall not")
    .replace(/\bcan ?not\b|\bcan't\b/, "can not")
    .replace(/n't\b/, " not")
    .replace(/\s+/g, " ");
}

/**
 * Marks the atoms of one scanned text that fall inside a cue's scope. Linear in cues plus atoms
 * (a 5 MB log can hold thousands of both): atoms are sorted once and found by binary search,
 * clause boundaries are looked up next to each cue only.
 */
export function applyNegationScopes(t: Text, cues: NegationCue[], quotes: QuoteRange[], atoms: Atom[]): void {
  const s = t.s;
  // Atoms of one scan come in text order already; the check keeps this correct if that changes.
  const candidates: Atom[] = [];
  for (const a of atoms) if (a.kind !== "NEGATION" && a.effect === undefined) candidates.push(a);
  if (candidates.length === 0) return;
  if (!isSorted(candidates)) candidates.sort(byStart);
  for (const cue of cues) {
    let end = nextBoundary(s, cue.b);
    let start = cue.passive ? previousBoundaryEnd(s, cue.a) : cue.b;
    const q = enclosingQuote(quotes, cue);
    if (q) {
      start = Math.max(start, q.a);
      end = Math.min(end, q.b);
    }
    const from = t.byteAt(start);
    const to = t.byteAt(end);
    const cueStart = t.byteAt(cue.a);
    const cueEnd = t.byteAt(cue.b);
    for (let i = firstAtOrAfter(candidates, from); i < candidates.length; i++) {
      const atom = candidates[i]!;
      if (atom.byteStart >= to) break;
      if (atom.byteEnd > to) continue;
      // The cue's own text is not negated by itself (a QUOTED atom around it, for example).
      if (atom.byteStart <= cueStart && atom.byteEnd >= cueEnd) continue;
      atom.negated = true;
    }
  }
}

function byStart(x: Atom, y: Atom): number {
  return x.byteStart - y.byteStart;
}

function isSorted(atoms: Atom[]): boolean {
  for (let i = 1; i < atoms.length; i++) if (atoms[i]!.byteStart < atoms[i - 1]!.byteStart) return false;
  return true;
}

/** The innermost quoted string around the cue (quotes are in text order and at most 400 long). */
function enclosingQuote(quotes: QuoteRange[], cue: NegationCue): QuoteRange | null {
  let lo = 0;
  let hi = quotes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (quotes[mid]!.a <= cue.a) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo - 1; i >= 0 && quotes[i]!.a >= cue.a - 512; i--) {
    const q = quotes[i]!;
    if (q.a <= cue.a && cue.b <= q.b) return q;
  }
  return null;
}

function nextBoundary(s: string, from: number): number {
  CLAUSE_BOUNDARY_RE.lastIndex = from;
  const m = CLAUSE_BOUNDARY_RE.exec(s);
  return m ? m.index : s.length;
}

/** Clauses longer than this are cut: a scope never reaches further back. */
const MAX_CLAUSE_BACK = 2000;

/** Where the clause containing `before` starts: after the last boundary before it. */
function previousBoundaryEnd(s: string, before: number): number {
  // Walk back to the last sentence or line end (cheap), then look for a contrast word after it.
  const lim = Math.max(0, before - MAX_CLAUSE_BACK);
  let i = before - 1;
  for (; i >= lim; i--) {
    const c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x3b) break;
    if ((c === 0x2e || c === 0x21 || c === 0x3f) && i + 1 < s.length && /\s/.test(s[i + 1]!)) break;
  }
  let start = i + 1;
  CLAUSE_BOUNDARY_RE.lastIndex = start;
  let m: RegExpExecArray | null;
  while ((m = CLAUSE_BOUNDARY_RE.exec(s)) !== null && m.index + m[0].length <= before) start = m.index + m[0].length;
  return start;
}

function firstAtOrAfter(atoms: Atom[], byte: number): number {
  let lo = 0;
  let hi = atoms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (atoms[mid]!.byteStart < byte) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
