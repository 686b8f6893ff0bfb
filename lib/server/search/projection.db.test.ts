import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { byteOffsetAt } from "./byte-offsets";

/** What custodian_search_text makes of some bytes. */
async function projection(bytes: Uint8Array): Promise<string> {
  const [row] = await db().$queryRaw<Array<{ t: string }>>`select custodian_search_text(${Buffer.from(bytes)}::bytea) as t`;
  return row!.t;
}

/** Each character of a projection as the bytes it stands for (a raw-byte character: that byte). */
function charBytes(ch: string): number[] {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0xf780 && cp <= 0xf7ff) return [cp - 0xf700];
  if (cp === 0x20) return [0x20];
  return [...new TextEncoder().encode(ch)];
}

describe("the search projection's characters map back to the original's bytes", () => {
  it("holds for UTF-8, invalid bytes, NUL and the private-use characters that stand for bytes", async () => {
    const pieces = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => [...new TextEncoder().encode(s)]),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }),
      fc.constant([...new TextEncoder().encode("\uf7a3")]),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 8 }), async (parts) => {
        const bytes = Uint8Array.from(parts.flat());
        const text = await projection(bytes);
        expect(byteOffsetAt(text, text.length)).toBe(bytes.length);
        let at = 0;
        let index = 0;
        for (const ch of text) {
          expect(byteOffsetAt(text, index)).toBe(at);
          index += ch.length;
          const expected = charBytes(ch);
          const actual = [...bytes.subarray(at, at + expected.length)];
          // NUL is projected as a space; every other character is its own bytes.
          expect(actual.map((b) => (b === 0 ? 0x20 : b))).toEqual(expected);
          at += expected.length;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads the first 64 KiB, cut on a whole character", async () => {
    const bytes = new TextEncoder().encode(`${"a".repeat(65_535)}é and more`);
    const text = await projection(bytes);
    expect(text).toBe("a".repeat(65_535));
    expect(byteOffsetAt(text, text.length)).toBe(65_535);
  });
});
