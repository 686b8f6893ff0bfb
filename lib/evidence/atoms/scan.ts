/**
 * The text scanner: finds paths, URLs, identifiers, timestamps, numbers, quoted strings and
 * negations in one `Text`, in a single left-to-right pass.
 *
 * Modes: "prose" (messages, results, summaries: negations scope over what they deny), "data"
 * (file contents, heredocs: atoms, but no negation scopes, since a file saying "do not edit" is
 * not the agent denying an act) and "shell" (command text: paths and quotes come from the shell
 * words instead, see shell/analyze.ts).
 */
import type { Atom } from "../types";
import type { ScanContext } from "./context";
import * as patterns from "./patterns";
import type { AtomShape } from "./patterns";
import { applyNegationScopes, collectNegations, type QuoteRange } from "./negation";
import type { AtomSink } from "./sink";
import { handleShape } from "./shapes";
import type { Text } from "./text";

export type ScanMode = "prose" | "data" | "shell";

// Module-local bindings: some loaders turn imported constants into getter calls on a hot path.
const { ANCHOR_RE, SHELL_ANCHOR_RE, SHAPE, SHAPE_ORDER, SHELL_SHAPE_ORDER } = patterns;

export type { ScanContext } from "./context";

// Character classes for walking back from an anchor to where its token starts.
const WORD = 1; // [A-Za-z0-9_]
const DASH = 2; // -
const PATHCH = 4; // [\w.\-+@%~] and non-ASCII
const SCHEME = 8; // [A-Za-z0-9+.-]
const CLS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  let f = 0;
  if (/[A-Za-z0-9_]/.test(ch)) f |= WORD | PATHCH;
  if (ch === "-") f |= DASH | PATHCH | SCHEME;
  if (/[.+@%~]/.test(ch) || c >= 0x80) f |= PATHCH;
  if (/[A-Za-z0-9+.]/.test(ch)) f |= SCHEME;
  CLS[c] = f;
}

function back(s: string, p: number, floor: number, mask: number, max: number): number {
  let i = p;
  const lim = Math.max(floor, p - max);
  while (i > lim && (CLS[s.charCodeAt(i - 1) & 0xff]! & mask) !== 0) i--;
  return i;
}

function forward(s: string, p: number, mask: number): number {
  let i = p;
  while (i < s.length && (CLS[s.charCodeAt(i) & 0xff]! & mask) !== 0) i++;
  return i;
}

const QUOTES: QuoteRange[] = [];

const SLASH = 0x2f;
const DOT = 0x2e;
const COLON = 0x3a;

/** Scans `t` and adds its atoms to `sink`; returns the atoms it added. */
export function scanText(
  t: Text,
  sink: AtomSink,
  ctx: ScanContext,
  mode: ScanMode,
  skip?: ReadonlyArray<readonly [number, number]>,
): void {
  const s = t.s;
  const first = sink.atoms.length;
  if (s.length === 0) return;
  const shell = mode === "shell";
  const anchor = shell ? SHELL_ANCHOR_RE : ANCHOR_RE;
  // One scan at a time (scanText never re-enters itself), so one array serves every call.
  const quotes = QUOTES;
  quotes.length = 0;
  let floor = 0;
  let skipIdx = 0;
  anchor.lastIndex = 0;
  while (anchor.test(s)) {
    const p = anchor.lastIndex - 1;
    if (skip) {
      while (skipIdx < skip.length && skip[skipIdx]![1] <= p) skipIdx++;
      const r = skip[skipIdx];
      if (r && r[0] <= p) {
        anchor.lastIndex = r[1];
        floor = r[1];
        continue;
      }
    }
    const c = s.charCodeAt(p);
    let ts = p;
    let skipMask = 0;
    if (c >= 0x30 && c <= 0x39) {
      ts = back(s, p, floor, shell ? WORD | DASH : PATHCH, 256);
      skipMask = WORD | DASH;
    } else if (c === SLASH || c === DOT) {
      ts = back(s, p, floor, PATHCH, 1024);
      skipMask = PATHCH;
    } else if (c === COLON) {
      ts = back(s, p, floor, SCHEME, 16);
    }
    let end = tryAt(t, ts, sink, ctx, shell, floor, quotes);
    if (end < 0 && ts !== p) end = tryAt(t, p, sink, ctx, shell, floor, quotes);
    if (end < 0 && skipMask === (WORD | DASH)) {
      // "83db48f..bf269f4": the id starts at its word, after punctuation the token allowed.
      const ws = back(s, p, floor, WORD, 128);
      if (ws !== ts && ws !== p) end = tryAt(t, ws, sink, ctx, shell, floor, quotes);
    }
    if (end >= 0) {
      anchor.lastIndex = end;
      floor = end;
    } else {
      const next = skipMask === 0 ? p + 1 : Math.max(p + 1, forward(s, p + 1, skipMask | (c === SLASH ? WORD : 0)));
      anchor.lastIndex = next;
      floor = next;
    }
  }
  const scanned = sink.atoms.length;
  const cues = collectNegations(t, sink, skip);
  if (cues === null) return;
  mergeTail(sink.atoms, first, scanned);
  if (mode === "prose") applyNegationScopes(t, cues, quotes, sink.atoms.slice(first));
}

/**
 * Merges the two runs atoms[first, mid) (shapes, in text order) and atoms[mid, end) (negation
 * cues, in text order) so the span's atoms stay in text order and rarely need sorting later.
 */
function mergeTail(atoms: Atom[], first: number, mid: number): void {
  if (mid === first || mid === atoms.length) return;
  const a = atoms.slice(first, mid);
  const b = atoms.slice(mid);
  let i = 0;
  let j = 0;
  let k = first;
  while (i < a.length && j < b.length) atoms[k++] = a[i]!.byteStart <= b[j]!.byteStart ? a[i++]! : b[j++]!;
  while (i < a.length) atoms[k++] = a[i++]!;
  while (j < b.length) atoms[k++] = b[j++]!;
}

/**
 * Tries the atom shapes that can start at `pos`, in priority order. Returns where scanning
 * continues (after the atom, or inside a quoted string), or -1 when nothing believable starts
 * there. A shape whose regex matches but whose value is implausible lets the next shape try.
 */
function tryAt(
  t: Text,
  pos: number,
  sink: AtomSink,
  ctx: ScanContext,
  shell: boolean,
  floor: number,
  quotes: QuoteRange[],
): number {
  const s = t.s;
  const c0 = s.charCodeAt(pos);
  const order = (shell ? SHELL_SHAPE_ORDER : SHAPE_ORDER)[c0 & 0xff]!;
  // Numbers are everywhere in logs; most are plain. Rule out shapes a digit run cannot start.
  const digits = c0 >= 0x30 && c0 <= 0x39 ? digitRun(s, pos) : -1;
  for (let i = 0; i < order.length; i++) {
    const shape = order[i]!;
    if (digits > 0 && !digitShapePossible(shape, s, pos, digits)) continue;
    const re = SHAPE[shape];
    re.lastIndex = pos;
    if (!re.test(s)) continue;
    const end = handleShape(shape, t, pos, re.lastIndex, sink, ctx, floor, quotes);
    if (end >= 0) return end;
  }
  return -1;
}

function digitRun(s: string, pos: number): number {
  let j = pos;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c < 0x30 || c > 0x39) break;
    j++;
  }
  return j - pos;
}

function isHexLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * Cheap necessary conditions, from the run of `len` digits at `pos` and what follows it; a shape
 * that passes is still checked by its regex.
 */
function digitShapePossible(shape: AtomShape, s: string, pos: number, len: number): boolean {
  const next = s.charCodeAt(pos + len);
  switch (shape) {
    case "ISO":
      return len === 4 && next === 0x2d;
    case "UUID":
      return len <= 8 && (s.charCodeAt(pos + 8) === 0x2d || isHexLetter(next));
    case "HEX":
      return isHexLetter(next) || len >= 7;
    case "RFC":
    case "CTIME":
      return len <= 2 && next === 0x20;
    case "CLF":
      return len === 2 && next === 0x2f;
    case "EPOCH":
      return len === 10 || len === 13;
    case "EXIT":
      return len <= 3;
    case "REL":
    case "FILE": {
      // The token must go on with path characters (a slash, a dot, letters).
      return (
        next === 0x2f ||
        next === 0x2e ||
        next === 0x5f ||
        next === 0x2d ||
        (next >= 0x41 && next <= 0x5a) ||
        (next >= 0x61 && next <= 0x7a)
      );
    }
    default:
      return true;
  }
}
