/**
 * The text of the first bytes of an original, as a list row shows it: decoded as UTF-8 (invalid
 * sequences as U+FFFD), without a character the prefix cut in half, with a one-line form for the
 * collapsed row. Pure, so what a row says can be tested without a browser. The text is rendered by
 * React as text, never as HTML.
 */

/** Characters of the one-line form. */
export const LINE_CHARS = 160;

export interface ExcerptText {
  /** The whole prefix, as text. */
  text: string;
  /** Its first LINE_CHARS characters with runs of whitespace as one space, "…" when cut. */
  line: string;
  /** Whether the prefix is less than the whole original. */
  truncated: boolean;
}

/** `head`: the first bytes of an original of `byteLength` bytes. */
export function excerptText(head: Uint8Array, byteLength: number): ExcerptText {
  const truncated = head.byteLength < byteLength;
  const whole = truncated ? head.subarray(0, completeUtf8Length(head)) : head;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(whole);
  return { text, line: oneLine(text, truncated), truncated };
}

/** The text on one line: whitespace runs (newlines too) as one space, control characters dropped, at most LINE_CHARS. */
export function oneLine(text: string, more = false): string {
  const flat = text
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const chars = Array.from(flat);
  if (chars.length > LINE_CHARS)
    return `${chars
      .slice(0, LINE_CHARS - 1)
      .join("")
      .trimEnd()}…`;
  return more && flat.length > 0 ? `${flat}…` : flat;
}

/**
 * The length of `bytes` without a UTF-8 sequence cut off at its end: a prefix of an original may
 * end inside a character, which would otherwise decode as a replacement character that is not in
 * the original.
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.byteLength;
  // A sequence is at most 4 bytes: look back at most 3 for the lead byte of the last one.
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
