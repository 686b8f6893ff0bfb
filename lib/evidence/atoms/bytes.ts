/**
 * Byte-exact views of a span body.
 *
 * Bodies are bytes, not necessarily UTF-8. The extractor works on a "binary string": one UTF-16
 * code unit per body byte (ISO-8859-1), so a string index IS a byte offset and invalid bytes can
 * never shift a range. Atom text is decoded from the body bytes only once a match is found, and
 * only when those bytes are valid UTF-8. Works in Node and browsers alike (TextDecoder only).
 */

const utf8 = new TextDecoder("utf-8");
/** WHATWG maps the "latin1" label to windows-1252; see `toBinaryString` for the repair. */
const latin1 = new TextDecoder("latin1");

/** windows-1252 code points for bytes 0x80-0x9F that differ from ISO-8859-1, back to the byte. */
const CP1252_TO_BYTE = new Map<string, string>();
{
  const cps = [
    0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
    0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
  ];
  cps.forEach((cp, i) => CP1252_TO_BYTE.set(String.fromCharCode(cp), String.fromCharCode(0x80 + i)));
}

/** True when every byte is < 0x80 (then the binary string is also the UTF-8 decoding). */
export function isAsciiBytes(b: Uint8Array): boolean {
  const n = b.length;
  let i = 0;
  // Word-at-a-time when aligned: this runs over every body, so it must cost next to nothing.
  if ((b.byteOffset & 3) === 0 && n >= 64) {
    const words = new Uint32Array(b.buffer, b.byteOffset, n >>> 2);
    let acc = 0;
    for (let k = 0; k < words.length; k++) acc |= words[k]!;
    if ((acc & 0x80808080) !== 0) return false;
    i = words.length << 2;
  }
  for (; i < n; i++) if (b[i]! >= 0x80) return false;
  return true;
}

/** One code unit per byte, char code === byte value. */
export function toBinaryString(b: Uint8Array): string {
  const s = latin1.decode(b);
  // Engines that follow WHATWG decode 0x80-0x9F as windows-1252; map those back to the byte.
  return /[^\x00-\xff]/.test(s) ? s.replace(/[^\x00-\xff]/g, (c) => CP1252_TO_BYTE.get(c) ?? "\x00") : s;
}

const HIGH = /[\x80-\xff]/;

/** True when a binary string holds only ASCII. */
export function isAsciiBinary(s: string): boolean {
  return !HIGH.test(s);
}

/** Strict UTF-8 validity of bytes [a, b): no overlongs, no surrogates, nothing above U+10FFFF. */
export function isValidUtf8(bytes: Uint8Array, a: number, b: number): boolean {
  let i = a;
  while (i < b) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
      cp = c & 0x07;
    } else return false;
    if (i + need >= b) return false; // truncated sequence at the end of the range
    for (let k = 1; k <= need; k++) {
      const cc = bytes[i + k]!;
      if ((cc & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

/** The same check over a binary string (used for values rebuilt from JSON or shell escapes). */
export function isValidUtf8Binary(s: string): boolean {
  if (!HIGH.test(s)) return true;
  return isValidUtf8(binaryToBytes(s), 0, s.length);
}

export function binaryToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Decodes a binary string as UTF-8 (lossy for invalid sequences; callers validate first). */
export function binaryToString(s: string): string {
  return HIGH.test(s) ? utf8.decode(binaryToBytes(s)) : s;
}

/** UTF-8 bytes of a JS string, as a binary string (for searching hint values in a body). */
export function stringToBinary(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(s)) return s;
  const b = new TextEncoder().encode(s);
  let out = "";
  for (let i = 0; i < b.length; i += 8192) out += String.fromCharCode(...b.subarray(i, i + 8192));
  return out;
}

/** Decodes body bytes [a, b) exactly as `new TextDecoder().decode` does. */
export function decodeRange(bytes: Uint8Array, a: number, b: number): string {
  return utf8.decode(bytes.subarray(a, b));
}
