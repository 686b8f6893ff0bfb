/**
 * Does a summary's text still contain an atom? The matching rules behind omission manifests,
 * the gate's honesty check and lineage fidelity.
 *
 * Deliberately strict: a match must stand on token boundaries, so "5" is not found in "15",
 * "/etc/app" not in "/etc/app/conf.yaml" and "/etc/app/conf.yaml" not in
 * "/etc/app/conf.yaml.bak". Erring towards "dropped" only ever asks a summary to name more.
 */
import type { Atom, AtomKind } from "./types";

/** A summary text prepared once for many atom look-ups. */
export interface SummaryText {
  readonly text: string;
  readonly lower: string;
  /** Runs of whitespace collapsed to one space, for atoms a summary may re-flow (commands). */
  readonly collapsed: string;
  readonly collapsedLower: string;
}

export function prepareSummaryText(text: string): SummaryText {
  const collapsed = collapseWhitespace(text);
  return { text, lower: text.toLowerCase(), collapsed, collapsedLower: collapsed.toLowerCase() };
}

/** Identifiers (hex hashes, uuids, ticket ids) and negation phrases do not depend on case. */
const CASE_INSENSITIVE: ReadonlySet<AtomKind> = new Set<AtomKind>(["IDENTIFIER", "NEGATION"]);

/**
 * True when the summary contains the atom's exact text or its normalised value. NEGATION atoms
 * are handled by `splitKeptDropped`, which also requires the negated facts to survive.
 */
export function textContainsAtom(summary: SummaryText, atom: Atom): boolean {
  const ci = CASE_INSENSITIVE.has(atom.kind);
  return containsValue(summary, atom.text, ci) || (atom.normalized !== atom.text && containsValue(summary, atom.normalized, ci));
}

/**
 * Partitions atoms into kept and dropped. A negation is kept only if its phrase is in the text
 * AND every negated atom of the span is kept too: "did not" somewhere in a summary says nothing
 * about *what* was not done, and a summary that keeps "/etc/hosts" but loses "did not write"
 * inverts the fact. Conservative on purpose.
 */
export function splitKeptDropped(atoms: readonly Atom[], summary: SummaryText): { kept: Atom[]; dropped: Atom[] } {
  const keptFlags = new Array<boolean>(atoms.length);
  let negatedAllKept = true;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.kind === "NEGATION") continue;
    const k = textContainsAtom(summary, a);
    keptFlags[i] = k;
    if (a.negated && !k) negatedAllKept = false;
  }
  const kept: Atom[] = [];
  const dropped: Atom[] = [];
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    const k = a.kind === "NEGATION" ? negatedAllKept && textContainsAtom(summary, a) : keptFlags[i] === true;
    (k ? kept : dropped).push(a);
  }
  return { kept, dropped };
}

function containsValue(summary: SummaryText, value: string, caseInsensitive: boolean): boolean {
  if (value === "") return true; // nothing to lose
  if (/\s/.test(value)) {
    const v = collapseWhitespace(value);
    return containsBounded(caseInsensitive ? summary.collapsedLower : summary.collapsed, caseInsensitive ? v.toLowerCase() : v);
  }
  return containsBounded(caseInsensitive ? summary.lower : summary.text, caseInsensitive ? value.toLowerCase() : value);
}

/** `needle` occurs in `hay` with token boundaries on both sides (see the file comment). */
export function containsBounded(hay: string, needle: string): boolean {
  if (needle === "") return true;
  let from = 0;
  for (;;) {
    const i = hay.indexOf(needle, from);
    if (i < 0) return false;
    if (boundaryBefore(hay, i, needle) && boundaryAfter(hay, i + needle.length, needle)) return true;
    from = i + 1;
  }
}

function boundaryBefore(hay: string, i: number, needle: string): boolean {
  if (i === 0) return true;
  const prev = hay.charCodeAt(i - 1);
  const first = needle.charCodeAt(0);
  if (isWordCode(first) && isWordCode(prev)) return false;
  // Mirror of boundaryAfter: "5" inside "5.5", "123" inside "ABC-123" are other tokens.
  if (isWordCode(first) && (prev === DOT || prev === DASH || prev === COMMA || prev === COLON) && i >= 2) {
    if (isWordCode(hay.charCodeAt(i - 2))) return false;
  }
  // A path glued to more path is a different path: "/home/u/etc/x" does not contain "/etc/x".
  if (first === SLASH && (isWordCode(prev) || prev === DOT || prev === DASH || prev === SLASH || prev === TILDE)) return false;
  return true;
}

function boundaryAfter(hay: string, j: number, needle: string): boolean {
  if (j >= hay.length) return true;
  const next = hay.charCodeAt(j);
  const last = needle.charCodeAt(needle.length - 1);
  if (isWordCode(last) && isWordCode(next)) return false;
  // Punctuation followed by more token characters continues the token: "conf.yaml.bak", "5.5",
  // "/etc/app/conf", "1,000"; at the end of a sentence it does not: "…/conf.yaml." or "5, 6".
  if ((next === DOT || next === DASH || next === SLASH || next === COMMA || next === COLON) && j + 1 < hay.length) {
    if (isWordCode(hay.charCodeAt(j + 1))) return false;
  }
  return true;
}

const SLASH = 0x2f;
const DOT = 0x2e;
const DASH = 0x2d;
const TILDE = 0x7e;
const COMMA = 0x2c;
const COLON = 0x3a;

const NON_ASCII_WORD = /[\p{L}\p{N}]/u;

/** Letters, digits and underscore, in any script; typographic quotes and dashes are not. */
function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  // Surrogate halves stand for letters outside the BMP often enough to count as word characters.
  return (c >= 0xd800 && c <= 0xdfff) || NON_ASCII_WORD.test(String.fromCharCode(c));
}

function collapseWhitespace(s: string): string {
  return s.replace(/\s+/g, " ");
}
