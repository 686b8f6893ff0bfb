/**
 * Text positions in a span's search projection back to byte offsets in its original bytes.
 * The projection (custodian_search_text, prisma/sql) is the original's first 64 KiB as text, with
 * one rule that makes every character stand for a known run of bytes: a character in
 * U+F780..U+F7FF stands for one raw byte (0x80 + its offset in that range; the projection of a body
 * that is not UTF-8, or holds NUL, maps every byte to one character so), any other character for
 * its own UTF-8 encoding (NUL, projected as a space, is one byte like the space).
 */

/** How many bytes of the original projection text stands for, from position 0 to `index` (UTF-16 units). */
export function byteOffsetAt(text: string, index: number): number {
  let bytes = 0;
  let i = 0;
  while (i < index && i < text.length) {
    const cp = text.codePointAt(i) ?? 0;
    const units = cp > 0xffff ? 2 : 1;
    bytes += cp >= 0xf780 && cp <= 0xf7ff ? 1 : utf8Length(cp);
    i += units;
  }
  return bytes;
}

function utf8Length(cp: number): number {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

/** A projection's raw-byte characters as what a reader sees: the replacement character. */
export function readable(text: string): string {
  return text.replace(/[\uf780-\uf7ff]/g, "\ufffd");
}
