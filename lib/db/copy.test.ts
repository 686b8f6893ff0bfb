import { describe, expect, it } from "vitest";
import { field } from "./copy";

describe("a COPY text-format field", () => {
  it("escapes backslash, tab, newline and carriage return, and leaves everything else as it is", () => {
    expect(field("a\\b\tc\nd\re")).toBe("a\\\\b\\tc\\nd\\re");
    expect(field("\\\\\t\t")).toBe("\\\\\\\\\\t\\t");
    expect(field("plain ünïcödé \u0001")).toBe("plain ünïcödé \u0001");
    expect([field(null), field(undefined), field(3), field(false), field(new Date(0))]).toEqual([
      "\\N",
      "\\N",
      "3",
      "f",
      "1970-01-01T00:00:00.000Z",
    ]);
  });
});
