import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalChunks, canonicalJson, canonicalSha256 } from "./export-canonical";

/**
 * The canonical form by a different route: one string built recursively (JSON.stringify alone
 * cannot be the oracle, since objects always list integer-like keys first).
 */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

describe("canonical JSON", () => {
  it("sorts keys recursively, writes no whitespace and leaves out undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: "é\n" }], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[3,{"y":"é\\n","z":null}]},"b":1}',
    );
    // Sorted by UTF-16 code units: capitals before lower case, "10" before "9".
    expect(canonicalJson({ b: 0, B: 0, 9: 0, 10: 0 })).toBe('{"10":0,"9":0,"B":0,"b":0}');
    expect(canonicalJson(new Date("2026-12-03T10:00:00Z"))).toBe('"2026-12-03T10:00:00.000Z"');
  });

  it("refuses what JSON cannot say exactly", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/no form/);
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(/no form/);
    expect(() => canonicalJson({ b: new Uint8Array([1]) })).toThrow(/base64/);
  });

  it("equals key-sorted JSON.stringify for any JSON value, and its hash is the text's sha256", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(text).toBe(reference(value));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(canonicalSha256(value)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
      { numRuns: 300 },
    );
  });

  it("does not depend on the order keys were written in", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalSha256(reversed)).toBe(canonicalSha256(dict));
      }),
      { numRuns: 100 },
    );
  });

  it("writes an array element by element, never as one string", () => {
    const big = Array.from({ length: 1000 }, (_, i) => ({ i }));
    const chunks = [...canonicalChunks({ big })];
    expect(chunks.length).toBeGreaterThan(1000);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(20);
  });
});
