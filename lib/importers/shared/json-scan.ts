/**
 * Structural scanning of JSON at the byte level, without parsing values.
 *
 * Importers need two things JSON.parse cannot give: the exact bytes a value had in the file (a
 * tool call's arguments are evidence, and re-serialising them could change escapes or number
 * spellings), and the elements of an array that is truncated or garbled somewhere (so one bad
 * record does not cost the rest). Working on bytes rather than strings keeps offsets exact and
 * lets each record be UTF-8-decoded on its own: JSON's structural characters are ASCII and never
 * occur inside a multi-byte UTF-8 sequence.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const keyDecoder = new TextDecoder("utf-8");

function isWs(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export function skipWs(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isWs(bytes[i]!)) i++;
  return i;
}

/** End (exclusive) of the string literal opening at `i`, or -1 when the bytes end inside it. */
function skipString(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; j < bytes.length; j++) {
    const b = bytes[j]!;
    if (b === BACKSLASH) j++;
    else if (b === QUOTE) return j + 1;
  }
  return -1;
}

/**
 * End (exclusive) of the JSON value starting at or after `i`, or -1 when the bytes end inside it.
 * Structure only: a value that is balanced but invalid still has an end.
 */
export function skipValue(bytes: Uint8Array, i: number): number {
  i = skipWs(bytes, i);
  if (i >= bytes.length) return -1;
  const first = bytes[i]!;
  if (first === QUOTE) return skipString(bytes, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === QUOTE) {
        const end = skipString(bytes, i);
        if (end < 0) return -1;
        i = end - 1;
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET || isWs(b)) break;
    i++;
  }
  return i;
}

/** Start of the value of `key` in the object opening at `open`, or -1. */
function memberStart(bytes: Uint8Array, open: number, key: string): number {
  let j = open + 1;
  for (;;) {
    j = skipWs(bytes, j);
    if (bytes[j] !== QUOTE) return -1;
    const keyEnd = skipString(bytes, j);
    if (keyEnd < 0) return -1;
    let name: unknown;
    try {
      name = JSON.parse(keyDecoder.decode(bytes.subarray(j, keyEnd)));
    } catch {
      return -1;
    }
    j = skipWs(bytes, keyEnd);
    if (bytes[j] !== COLON) return -1;
    j = skipWs(bytes, j + 1);
    if (name === key) return j;
    const valueEnd = skipValue(bytes, j);
    if (valueEnd < 0) return -1;
    j = skipWs(bytes, valueEnd);
    if (bytes[j] !== COMMA) return -1;
    j++;
  }
}

/** Start of element `index` in the array opening at `open`, or -1. */
function elementStart(bytes: Uint8Array, open: number, index: number): number {
  let j = skipWs(bytes, open + 1);
  for (let k = 0; k < index; k++) {
    const end = skipValue(bytes, j);
    if (end < 0) return -1;
    j = skipWs(bytes, end);
    if (bytes[j] !== COMMA) return -1;
    j = skipWs(bytes, j + 1);
  }
  return bytes[j] === CLOSE_BRACKET ? -1 : j;
}

/**
 * Where the value at `path` (object keys and array indexes) starts in the JSON at `from`, or -1.
 * It does not need the value to end, so it also works in a truncated document.
 */
export function locate(bytes: Uint8Array, path: ReadonlyArray<string | number>, from = 0): number {
  let i = skipWs(bytes, from);
  for (const step of path) {
    if (typeof step === "string") {
      if (bytes[i] !== OPEN_BRACE) return -1;
      i = memberStart(bytes, i, step);
    } else {
      if (bytes[i] !== OPEN_BRACKET) return -1;
      i = elementStart(bytes, i, step);
    }
    if (i < 0) return -1;
  }
  return i;
}

/** The exact bytes of the value at `path`, or undefined when it is absent or does not end. */
export function rawValue(bytes: Uint8Array, path: ReadonlyArray<string | number>): Uint8Array | undefined {
  const start = locate(bytes, path);
  if (start < 0) return undefined;
  const end = skipValue(bytes, start);
  return end < 0 ? undefined : bytes.subarray(start, end);
}

export interface ArrayElement {
  start: number;
  end: number;
  /** False for the last element of an array the bytes end inside. */
  complete: boolean;
}

/**
 * The elements of the array opening at `open`, split at its top-level commas. Garbage between
 * elements lands inside one element (which then fails to parse) instead of derailing the rest; an
 * array the bytes end inside yields its last element as incomplete.
 */
export function splitArray(bytes: Uint8Array, open: number): { elements: ArrayElement[]; closed: boolean } {
  const elements: ArrayElement[] = [];
  const push = (start: number, end: number, complete: boolean) => {
    const s = skipWs(bytes, start);
    let e = end;
    while (e > s && isWs(bytes[e - 1]!)) e--;
    if (e > s) elements.push({ start: s, end: e, complete });
  };
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      const end = skipString(bytes, i);
      if (end < 0) break;
      i = end - 1;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      if (depth === 0) {
        push(start, i, true);
        return { elements, closed: true };
      }
      depth--;
    } else if (b === COMMA && depth === 0) {
      push(start, i, true);
      start = i + 1;
    }
  }
  push(start, bytes.length, false);
  return { elements, closed: false };
}

/** 1-based line number of byte `offset`, counting forward from a known (offset, line) pair. */
export function lineAt(
  bytes: Uint8Array,
  offset: number,
  from: { offset: number; line: number } = { offset: 0, line: 1 },
): number {
  let line = from.line;
  for (let i = from.offset; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
