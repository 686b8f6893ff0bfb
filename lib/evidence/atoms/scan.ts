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
import * as patterns from "./patterns";
import type { AtomShape } from "./patterns";
import { normalizeIdentifier, plausibleHex, plausibleTicket } from "./identifiers";
import { applyNegationScopes, collectNegations, type QuoteRange } from "./negation";
import { normalizeCurrency, normalizeExitCode, normalizeNumberWithUnit } from "./numbers";
import {
  looksLikePath,
  normalizePath,
  plausibleAbsolute,
  plausibleBareFile,
  plausibleRelative,
  trimPathEnd,
} from "./paths";
import { valueOf, type AtomSink } from "./sink";
import type { Text } from "./text";
import {
  CTIME_PREFIX,
  RFC_PREFIX,
  normalizeClf,
  normalizeCtime,
  normalizeEpoch,
  normalizeIso,
  normalizeRfc,
} from "./timestamps";

export type ScanMode = "prose" | "data" | "shell";

// Module-local bindings: some loaders turn imported constants into getter calls on a hot path.
const { ANCHOR_RE, SHELL_ANCHOR_RE, SHAPE, SHAPE_ORDER, SHELL_SHAPE_ORDER } = patterns;

export interface ScanContext {
  cwd?: string;
  home: string;
}

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
    const end = handle(shape, t, pos, re.lastIndex, sink, ctx, floor, quotes);
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
      return next === 0x2f || next === 0x2e || next === 0x5f || next === 0x2d || (next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a);
    }
    default:
      return true;
  }
}

function handle(
  shape: AtomShape,
  t: Text,
  a: number,
  b: number,
  sink: AtomSink,
  ctx: ScanContext,
  floor: number,
  quotes: QuoteRange[],
): number {
  const s = t.s;
  switch (shape) {
    case "URL": {
      const end = a + trimUrlEnd(s.slice(a, b));
      const v = valueOf(s.slice(a, end));
      if (v === null || end - a < 8) return -1;
      sink.add("URL", t, a, end, normalizeUrl(v));
      return end;
    }
    case "ISO": {
      const m = s.slice(a, b);
      const n = normalizeIso(m);
      if (n === null) return -1;
      sink.add("TIMESTAMP", t, a, b, n, undefined, m);
      return b;
    }
    case "RFC": {
      const n = normalizeRfc(s.slice(a, b));
      if (n === null) return -1;
      const pre = RFC_PREFIX.exec(s.slice(Math.max(floor, a - 12), a));
      sink.add("TIMESTAMP", t, a - (pre ? pre[0].length : 0), b, n);
      return b;
    }
    case "CTIME": {
      const pre = CTIME_PREFIX.exec(s.slice(Math.max(floor, a - 16), a));
      if (!pre) return -1;
      const n = normalizeCtime(pre[1]!, s.slice(a, b));
      if (n === null) return -1;
      sink.add("TIMESTAMP", t, a - pre[0].length, b, n);
      return b;
    }
    case "CLF": {
      const n = normalizeClf(s.slice(a, b));
      if (n === null) return -1;
      sink.add("TIMESTAMP", t, a, b, n);
      return b;
    }
    case "EPOCH": {
      const n = normalizeEpoch(s.slice(a, b));
      if (n === null) return -1;
      sink.add("TIMESTAMP", t, a, b, n);
      return b;
    }
    case "UUID": {
      const m = s.slice(a, b);
      sink.add("IDENTIFIER", t, a, b, m.toLowerCase(), undefined, m);
      return b;
    }
    case "ABS":
    case "REL":
    case "DOT":
    case "FILE": {
      const end = a + trimPathEnd(s.slice(a, b));
      if (end <= a) return -1;
      const m = s.slice(a, end);
      const v = valueOf(m);
      if (v === null) return -1;
      const ok =
        shape === "ABS"
          ? plausibleAbsolute(v)
          : shape === "REL"
            ? plausibleRelative(v)
            : shape === "FILE"
              ? plausibleBareFile(v)
              : true;
      if (!ok) return -1;
      sink.add("PATH", t, a, end, normalizePath(v, ctx.cwd, ctx.home), undefined, m);
      idsInsidePath(t, a, end, sink);
      return end;
    }
    case "HEX": {
      const v = s.slice(a, b);
      if (!plausibleHex(v)) return -1;
      sink.add("IDENTIFIER", t, a, b, normalizeIdentifier(v), undefined, v);
      return b;
    }
    case "TICKET": {
      const v = s.slice(a, b);
      if (!plausibleTicket(v)) return -1;
      sink.add("IDENTIFIER", t, a, b, normalizeIdentifier(v));
      return b;
    }
    case "HASHNUM":
      sink.add("IDENTIFIER", t, a, b, s.slice(a, b));
      return b;
    case "EXIT": {
      const pre = EXIT_PREFIX.exec(s.slice(Math.max(floor, a - 40), a));
      sink.add("NUMBER", t, a - (pre ? pre[0].length : 0), b, normalizeExitCode(s.slice(a, b)));
      return b;
    }
    case "NUM": {
      const m = s.slice(a, b);
      const v = valueOf(m);
      const n = v === null ? null : normalizeNumberWithUnit(v);
      if (n === null) return -1;
      sink.add("NUMBER", t, a, b, n, undefined, m);
      return b;
    }
    case "CURRENCY":
      sink.add("NUMBER", t, a, b, normalizeCurrency(s.slice(a, b)));
      return b;
    case "DQ":
    case "SQ":
    case "BQ":
    case "CQ":
      return quoted(shape === "CQ" ? 3 : 1, t, a, b, sink, ctx, quotes);
    case "PROMPT": {
      const v = valueOf(s.slice(a + 2, b));
      if (v === null || v.trim() === "") return -1;
      sink.add("COMMAND", t, a + 2, b, v.trim().replace(/\s+/g, " "));
      return a + 2;
    }
  }
}

function quoted(q: number, t: Text, a: number, b: number, sink: AtomSink, ctx: ScanContext, quotes: QuoteRange[]): number {
  const inner = t.s.slice(a + q, b - q);
  // "a", "b" in prose pairs the closing quote of one string with the opening of the next.
  if (/^\s|\s$/.test(inner) || !/[\w\x80-\xff]/.test(inner)) return -1;
  const v = valueOf(inner);
  if (v === null) return -1;
  sink.add("QUOTED", t, a, b, v);
  quotes.push({ a: a + q, b: b - q });
  if (looksLikePath(v)) {
    // A quoted path may contain spaces: the whole content is the path.
    sink.add("PATH", t, a + q, b - q, normalizePath(v, ctx.cwd, ctx.home));
    return b;
  }
  return a + q;
}

const EXIT_PREFIX =
  /(?:[Ee]xit(?:ed)?(?: with)?(?: code| status)?|EXIT(?: CODE| STATUS)?|[Rr]eturn(?:ed)? (?:code|status)|[Ee]xit_?[Cc]ode|returncode|exit_status|[Ss]tatus code)["']?[:=]?\s?$/;

function trimUrlEnd(u: string): number {
  let end = u.length;
  for (;;) {
    const ch = u[end - 1];
    if (ch === undefined) return end;
    if (".,;:!?'\"]>*".includes(ch)) end--;
    else if (ch === ")") {
      const body = u.slice(0, end);
      const opens = body.split("(").length - 1;
      const closes = body.split(")").length - 1;
      if (closes > opens) end--;
      else return end;
    } else return end;
  }
}

/** Scheme and host lower-cased; path, query and fragment kept as written. */
export function normalizeUrl(u: string): string {
  const m = /^([A-Za-z0-9+.-]+:\/\/)([^/?#]*)(.*)$/s.exec(u);
  if (!m) return u;
  return m[1]!.toLowerCase() + m[2]!.toLowerCase() + m[3]!;
}

const ID_IN_PATH =
  /(?<![0-9A-Za-z_-])(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{7,128})(?![0-9A-Za-z_-])/g;
const HEX7 = /[0-9a-f]{7}/i;

/** Uuids and hashes inside a path ("/api/users/550e8400-...", ".git/objects/4b/825dc6...") are ids too. */
function idsInsidePath(t: Text, a: number, b: number, sink: AtomSink): void {
  const p = t.s.slice(a, b);
  if (!HEX7.test(p)) return;
  ID_IN_PATH.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ID_IN_PATH.exec(p)) !== null) {
    const v = m[0];
    if (v.length !== 36 && !plausibleHex(v)) continue;
    sink.add("IDENTIFIER", t, a + m.index, a + m.index + v.length, v.toLowerCase());
  }
}
