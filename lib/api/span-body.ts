import { AppError } from "@/lib/core/errors";
import { hasLoneSurrogate } from "@/lib/core/text";
import { LIMITS } from "./schemas";

/** The base64 alphabet (RFC 4648, section 4): 1 for a character of it, 0 otherwise. */
const ALPHABET = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") ALPHABET[c.charCodeAt(0)] = 1;

/** Space, tab, line feed, vertical tab, form feed, carriage return: what wrapped base64 carries. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * The base64 text without its white space, or null when it is not base64: characters of the
 * alphabet, then at most two "=" that complete the last group of four. A loop over the
 * characters, not a regular expression: one over megabytes overflowed the stack.
 */
function compactBase64(body: string): string | null {
  let hasSpace = false;
  let count = 0;
  let padding = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (isSpace(c)) {
      hasSpace = true;
      continue;
    }
    if (c === 0x3d) {
      padding++;
      if (padding > 2) return null;
    } else if (c < 128 && ALPHABET[c] === 1) {
      if (padding > 0) return null; // data after padding
    } else return null;
    count++;
  }
  if (count % 4 !== 0) return null;
  if (!hasSpace) return body;
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i === body.length || isSpace(body.charCodeAt(i))) {
      if (i > start) parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  return parts.join("");
}

/**
 * A string as bytes: its UTF-8 encoding, or, when it holds a lone surrogate (which UTF-8 cannot
 * encode), its generalized UTF-8 (WTF-8): each lone surrogate as the three bytes its code point
 * would take, so the bytes give back exactly the string that was sent.
 */
export function stringBytes(body: string): Uint8Array {
  if (!hasLoneSurrogate(body)) return new TextEncoder().encode(body);
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    let cp = body.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const next = body.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return new Uint8Array(out);
}

function tooLarge(path: string, bytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `A span body exceeds ${LIMITS.maxSpanBytes} bytes`, {
    fields: [{ path, message: `${bytes} bytes; the limit is ${LIMITS.maxSpanBytes}` }],
    details: { maxSpanBytes: LIMITS.maxSpanBytes },
  });
}

/**
 * A span body as the bytes it stands for. Transcript bodies need not be UTF-8, so runtimes send
 * such bodies base64-encoded (white space allowed, as in wrapped base64); a JSON string body is
 * taken as its UTF-8 encoding (WTF-8 for lone surrogates, see stringBytes). Up to
 * LIMITS.maxSpanBytes decoded bytes; a larger body is a 413 before anything is decoded.
 */
export function decodeSpanBody(body: string, encoding: "utf8" | "base64", path: string): Uint8Array {
  if (encoding === "base64") {
    const compact = compactBase64(body);
    if (compact === null)
      throw new AppError("VALIDATION_FAILED", "A base64 body is malformed", { fields: [{ path, message: "not valid base64" }] });
    const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
    const size = (compact.length / 4) * 3 - padding;
    if (size > LIMITS.maxSpanBytes) throw tooLarge(path, size);
    return new Uint8Array(Buffer.from(compact, "base64"));
  }
  // A UTF-8 encoding is at most three bytes per UTF-16 unit: no need to encode a string that cannot exceed the limit.
  if (body.length > LIMITS.maxSpanBytes) {
    const bytes = Buffer.byteLength(body, "utf8");
    if (bytes > LIMITS.maxSpanBytes) throw tooLarge(path, bytes);
  }
  const bytes = stringBytes(body);
  if (bytes.byteLength > LIMITS.maxSpanBytes) throw tooLarge(path, bytes.byteLength);
  return bytes;
}
