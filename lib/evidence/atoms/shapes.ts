/**
 * What each atom shape means once its regex matched: the checks that make it believable (a
 * plausible path, a real date, a known unit) and its normalised value. Returns where scanning
 * continues, or -1 to let the next shape try.
 */
import { normalizeIdentifier, plausibleHex, plausibleTicket } from "./identifiers";
import type { QuoteRange } from "./negation";
import { normalizeCurrency, normalizeExitCode, normalizeNumberWithUnit } from "./numbers";
import type { AtomShape } from "./patterns";
import { looksLikePath, normalizePath, plausibleAbsolute, plausibleBareFile, plausibleRelative, trimPathEnd } from "./paths";
import type { ScanContext } from "./context";
import { valueOf, type AtomSink } from "./sink";
import type { Text } from "./text";
import { CTIME_PREFIX, RFC_PREFIX, normalizeClf, normalizeCtime, normalizeEpoch, normalizeIso, normalizeRfc } from "./timestamps";

export function handleShape(
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
      if (isObjectKey(s, b)) return objectKey(t, a, b, sink, ctx);
      return quoted(1, t, a, b, sink, ctx, quotes);
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

/**
 * A double-quoted string followed by a colon is an object key in JSON (or YAML) output: a field's
 * name ("title", "created_at"), not a fact the agent quoted. Its value is the atom; the key only
 * counts when it is itself a path.
 */
function isObjectKey(s: string, b: number): boolean {
  let i = b;
  while (s[i] === " " || s[i] === "\t") i++;
  return s[i] === ":";
}

function objectKey(t: Text, a: number, b: number, sink: AtomSink, ctx: ScanContext): number {
  const v = valueOf(t.s.slice(a + 1, b - 1));
  if (v !== null && looksLikePath(v)) sink.add("PATH", t, a + 1, b - 1, normalizePath(v, ctx.cwd, ctx.home));
  return b;
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
