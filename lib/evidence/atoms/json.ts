/**
 * A JSON reader that keeps positions. Tool calls are usually serialised as JSON, and an atom's
 * byte range must point at the bytes in the body, so `JSON.parse` (which forgets where values
 * were) is not enough. String values are unescaped into `Text`s that still map every character
 * back to its body bytes: the atom for "caf\u00e9" spans the six escape bytes, its normalised
 * value is "café". JSON Lines (several values separated by whitespace) parse as several roots.
 */
import { TextBuilder, type Text } from "./text";

export interface JStr {
  k: "s";
  /** Content range, quotes excluded. */
  a: number;
  b: number;
  esc: boolean;
  /** The unescaped value, once computed (strings with escapes only). */
  unescaped?: Text;
}
export interface JNum {
  k: "n";
  a: number;
  b: number;
}
export interface JLit {
  k: "l";
  a: number;
  b: number;
}
export interface JObj {
  k: "o";
  a: number;
  b: number;
  keys: string[];
  vals: JNode[];
}
export interface JArr {
  k: "a";
  a: number;
  b: number;
  items: JNode[];
}
export type JNode = JStr | JNum | JLit | JObj | JArr;

export const MAX_DEPTH = 512;

export class JsonDoc {
  constructor(
    readonly t: Text,
    readonly roots: JNode[],
  ) {}

  /** The string's value as a Text mapped to body bytes (escapes resolved). */
  text(n: JStr): Text {
    if (!n.esc) return this.t.sub(n.a, n.b);
    return (n.unescaped ??= unescapeJson(this.t, n.a, n.b));
  }

  /** The string's value as a binary string. */
  str(n: JStr): string {
    return n.esc ? this.text(n).s : this.t.s.slice(n.a, n.b);
  }

  /** The raw JSON text of any node. */
  raw(n: JNode): string {
    return n.k === "s" ? this.t.s.slice(n.a - 1, n.b + 1) : this.t.s.slice(n.a, n.b);
  }
}

/** Field of an object node by key, if present. */
export function field(o: JObj, key: string): JNode | undefined {
  const i = o.keys.indexOf(key);
  return i < 0 ? undefined : o.vals[i];
}

/**
 * Parses `t` as JSON (or JSON Lines); null when it is not. Only objects and arrays count. Text
 * that is not JSON is common (a result that starts with "["), so failure is a result, not an
 * exception: building an error's stack for each one cost more than the rest of the attempt.
 */
export function parseJson(t: Text): JsonDoc | null {
  const s = t.s;
  let i = skipWs(s, 0);
  const c = s.charCodeAt(i);
  if (c !== 0x7b && c !== 0x5b) return null;
  const p = new Parser(s, t);
  const roots: JNode[] = [];
  try {
    while (i < s.length) {
      p.pos = i;
      const root = p.value(0);
      if (root === null) return null;
      roots.push(root);
      i = skipWs(s, p.pos);
    }
  } catch (e) {
    // The one exception left: a stack too deep for this engine despite MAX_DEPTH.
    if (e instanceof RangeError) return null;
    throw e;
  }
  return new JsonDoc(t, roots);
}

export function skipWs(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

export const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** A recursive-descent parser whose every step answers null when the text is not JSON. */
class Parser {
  pos = 0;
  /** Next backslash at or after some earlier position; positions only grow, so this stays O(n). */
  private nextBs = -2;

  constructor(
    private readonly s: string,
    private readonly t: Text,
  ) {}

  value(depth: number): JNode | null {
    if (depth > MAX_DEPTH) return null;
    const s = this.s;
    const i = skipWs(s, this.pos);
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      this.pos = i;
      return this.string();
    }
    if (c === 0x7b) return this.object(i, depth);
    if (c === 0x5b) return this.array(i, depth);
    if (c === 0x74 && s.startsWith("true", i)) return this.lit(i, 4);
    if (c === 0x66 && s.startsWith("false", i)) return this.lit(i, 5);
    if (c === 0x6e && s.startsWith("null", i)) return this.lit(i, 4);
    NUM.lastIndex = i;
    const m = NUM.exec(s);
    if (m === null) return null;
    this.pos = i + m[0].length;
    return { k: "n", a: i, b: this.pos };
  }

  private lit(i: number, len: number): JLit {
    this.pos = i + len;
    return { k: "l", a: i, b: i + len };
  }

  /** At an opening quote; null when the string never ends. */
  string(): JStr | null {
    const s = this.s;
    const a = this.pos + 1;
    let j = a;
    for (;;) {
      j = s.indexOf('"', j);
      if (j < 0) return null;
      let k = 0;
      while (s.charCodeAt(j - 1 - k) === 0x5c) k++;
      if ((k & 1) === 0) break;
      j++;
    }
    if (this.nextBs !== -1 && this.nextBs < a) this.nextBs = s.indexOf("\\", a);
    const esc = this.nextBs !== -1 && this.nextBs < j;
    this.pos = j + 1;
    return { k: "s", a, b: j, esc };
  }

  private object(i: number, depth: number): JObj | null {
    const s = this.s;
    const keys: string[] = [];
    const vals: JNode[] = [];
    let p = skipWs(s, i + 1);
    if (s.charCodeAt(p) === 0x7d) {
      this.pos = p + 1;
      return { k: "o", a: i, b: p + 1, keys, vals };
    }
    for (;;) {
      if (s.charCodeAt(p) !== 0x22) return null;
      this.pos = p;
      const key = this.string();
      if (key === null) return null;
      keys.push(key.esc ? unescapeJson(this.t, key.a, key.b).s : s.slice(key.a, key.b));
      p = skipWs(s, this.pos);
      if (s.charCodeAt(p) !== 0x3a) return null;
      this.pos = p + 1;
      const v = this.value(depth + 1);
      if (v === null) return null;
      vals.push(v);
      p = skipWs(s, this.pos);
      const c = s.charCodeAt(p);
      if (c === 0x2c) {
        p = skipWs(s, p + 1);
        continue;
      }
      if (c !== 0x7d) return null;
      this.pos = p + 1;
      return { k: "o", a: i, b: p + 1, keys, vals };
    }
  }

  private array(i: number, depth: number): JArr | null {
    const s = this.s;
    const items: JNode[] = [];
    let p = skipWs(s, i + 1);
    if (s.charCodeAt(p) === 0x5d) {
      this.pos = p + 1;
      return { k: "a", a: i, b: p + 1, items };
    }
    for (;;) {
      this.pos = p;
      const v = this.value(depth + 1);
      if (v === null) return null;
      items.push(v);
      p = skipWs(s, this.pos);
      const c = s.charCodeAt(p);
      if (c === 0x2c) {
        p = skipWs(s, p + 1);
        continue;
      }
      if (c !== 0x5d) return null;
      this.pos = p + 1;
      return { k: "a", a: i, b: p + 1, items };
    }
  }
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Resolves the escapes of a JSON string's content [a, b) of `t`; \u escapes become UTF-8 bytes. */
export function unescapeJson(t: Text, a: number, b: number): Text {
  const s = t.s;
  const out = new TextBuilder(t);
  let run = a;
  let i = s.indexOf("\\", a);
  while (i >= 0 && i < b) {
    out.copy(run, i);
    const c = s[i + 1] ?? "";
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      out.unit(simple, i, i + 2);
      run = i + 2;
    } else if (c === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
      let cp = parseInt(s.slice(i + 2, i + 6), 16);
      let end = i + 6;
      if (cp >= 0xd800 && cp <= 0xdbff && s[end] === "\\" && s[end + 1] === "u") {
        const lo = parseInt(s.slice(end + 2, end + 6), 16);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          end += 6;
        }
      }
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate
      out.unit(utf8Binary(cp), i, end);
      run = end;
    } else {
      // Not a valid escape: keep the backslash literally.
      out.copy(i, Math.min(i + 1, b));
      run = i + 1;
    }
    i = s.indexOf("\\", run);
  }
  out.copy(run, b);
  out.skip(b);
  return out.build();
}

function utf8Binary(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  return String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
}
