/**
 * Streaming JSON: the scalar values of a JSON (or JSON Lines) text in document order, without
 * building a tree, for large bodies that need no structure.
 */
import { MAX_DEPTH, NUM, skipWs, unescapeJson } from "./json";
import type { Text } from "./text";

/** Receives the scalar values of a JSON text in document order, with the key they sit under. */
export interface JsonVisitor {
  string(a: number, b: number, esc: boolean, key: string | null): void;
  number(a: number, b: number, key: string | null): void;
}

/**
 * Visits a JSON (or JSON Lines) text without building a tree: for large bodies that need no
 * structure (tool results), this allocates nothing per value. Returns false when the text is not
 * JSON (the visitor may already have seen a prefix: callers roll back).
 */
export function visitJson(t: Text, visitor: JsonVisitor): boolean {
  const s = t.s;
  let i = skipWs(s, 0);
  const c = s.charCodeAt(i);
  if (c !== 0x7b && c !== 0x5b) return false;
  const p = new StreamParser(s, t, visitor);
  try {
    while (i < s.length) {
      p.pos = i;
      if (!p.value(0, null)) return false;
      i = skipWs(s, p.pos);
    }
  } catch (e) {
    // The one exception left: a stack too deep for this engine despite MAX_DEPTH.
    if (e instanceof RangeError) return false;
    throw e;
  }
  return true;
}

/** Like parseJson's parser, every step answers false when the text is not JSON (no exceptions). */
class StreamParser {
  pos = 0;
  private nextBs = -2;

  constructor(
    private readonly s: string,
    private readonly t: Text,
    private readonly v: JsonVisitor,
  ) {}

  value(depth: number, key: string | null): boolean {
    if (depth > MAX_DEPTH) return false;
    const s = this.s;
    let i = skipWs(s, this.pos);
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      const j = this.stringEnd(i + 1);
      if (j < 0) return false;
      this.v.string(i + 1, j, this.hasEscape(i + 1, j), key);
      this.pos = j + 1;
      return true;
    }
    if (c === 0x7b) {
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === 0x7d) {
        this.pos = i + 1;
        return true;
      }
      for (;;) {
        if (s.charCodeAt(i) !== 0x22) return false;
        const ke = this.stringEnd(i + 1);
        if (ke < 0) return false;
        const k = this.hasEscape(i + 1, ke) ? unescapeJson(this.t, i + 1, ke).s : s.slice(i + 1, ke);
        i = skipWs(s, ke + 1);
        if (s.charCodeAt(i) !== 0x3a) return false;
        this.pos = i + 1;
        if (!this.value(depth + 1, k)) return false;
        i = skipWs(s, this.pos);
        const d = s.charCodeAt(i);
        if (d === 0x2c) {
          i = skipWs(s, i + 1);
          continue;
        }
        if (d !== 0x7d) return false;
        this.pos = i + 1;
        return true;
      }
    }
    if (c === 0x5b) {
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === 0x5d) {
        this.pos = i + 1;
        return true;
      }
      for (;;) {
        this.pos = i;
        if (!this.value(depth + 1, key)) return false;
        i = skipWs(s, this.pos);
        const d = s.charCodeAt(i);
        if (d === 0x2c) {
          i = skipWs(s, i + 1);
          continue;
        }
        if (d !== 0x5d) return false;
        this.pos = i + 1;
        return true;
      }
    }
    if ((c === 0x74 && s.startsWith("true", i)) || (c === 0x6e && s.startsWith("null", i))) {
      this.pos = i + 4;
      return true;
    }
    if (c === 0x66 && s.startsWith("false", i)) {
      this.pos = i + 5;
      return true;
    }
    NUM.lastIndex = i;
    const m = NUM.exec(s);
    if (m === null) return false;
    this.pos = i + m[0].length;
    this.v.number(i, this.pos, key);
    return true;
  }

  /** Index of the closing quote of a string whose content starts at `a`; -1 when it never ends. */
  private stringEnd(a: number): number {
    const s = this.s;
    let j = a;
    for (;;) {
      j = s.indexOf('"', j);
      if (j < 0) return -1;
      let k = 0;
      while (s.charCodeAt(j - 1 - k) === 0x5c) k++;
      if ((k & 1) === 0) return j;
      j++;
    }
  }

  private hasEscape(a: number, b: number): boolean {
    if (this.nextBs !== -1 && this.nextBs < a) this.nextBs = this.s.indexOf("\\", a);
    return this.nextBs !== -1 && this.nextBs < b;
  }
}
