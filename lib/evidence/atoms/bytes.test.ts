import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binaryToString, isAsciiBytes, isValidUtf8, stringToBinary, toBinaryString } from "./bytes";

const enc = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

function strictValid(b: Uint8Array): boolean {
  try {
    strict.decode(b);
    return true;
  } catch {
    return false;
  }
}

describe("bytes", () => {
  it("reads every byte as one character, 0x80-0x9F included", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const s = toBinaryString(all);
    expect(s.length).toBe(256);
    for (let i = 0; i < 256; i++) expect(s.charCodeAt(i)).toBe(i);
  });

  it("detects ASCII word-at-a-time and byte-at-a-time", () => {
    expect(isAsciiBytes(enc.encode("plain ascii ".repeat(20)))).toBe(true);
    const b = enc.encode(`${"x".repeat(100)}é`);
    expect(isAsciiBytes(b)).toBe(false);
    expect(isAsciiBytes(b.subarray(1))).toBe(false); // unaligned view
  });

  it("validates UTF-8 exactly like a fatal decoder", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(isValidUtf8(b, 0, b.length)).toBe(strictValid(b));
      }),
      { numRuns: 2000 },
    );
  });

  it("rejects overlongs, surrogates and truncated sequences", () => {
    expect(isValidUtf8(Uint8Array.from([0xc0, 0xaf]), 0, 2)).toBe(false);
    expect(isValidUtf8(Uint8Array.from([0xed, 0xa0, 0x80]), 0, 3)).toBe(false);
    expect(isValidUtf8(Uint8Array.from([0xe2, 0x82]), 0, 2)).toBe(false);
    expect(isValidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]), 0, 4)).toBe(false);
    expect(isValidUtf8(enc.encode("café 😀"), 0, enc.encode("café 😀").length)).toBe(true);
  });

  it("round-trips strings through their UTF-8 binary form", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(binaryToString(stringToBinary(s))).toBe(s);
      }),
    );
  });
});
