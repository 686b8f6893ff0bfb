import { describe, expect, it } from "vitest";
import { utf8CutEnd } from "./limits";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("utf8CutEnd: a cut of UTF-8 that does not split a character", () => {
  it.each([
    ["ascii", bytes("abc"), 3],
    ["a whole two-byte character at the end", bytes("aé"), 3],
    ["half of a two-byte character", bytes("aé").subarray(0, 2), 1],
    ["a third of a three-byte character", bytes("a€").subarray(0, 2), 1],
    ["two thirds of a three-byte character", bytes("a€").subarray(0, 3), 1],
    ["three quarters of a four-byte character", bytes("a😀").subarray(0, 4), 1],
    ["a whole four-byte character", bytes("a😀"), 5],
    ["nothing", new Uint8Array(0), 0],
  ])("%s", (_name, cut, end) => {
    expect(utf8CutEnd(cut)).toBe(end);
  });
});
