import { describe, expect, it } from "vitest";
import type { Atom } from "../types";
import { compilePredicate, compileRegex, MAX_PATTERN_PROGRAM, matchAtom, PredicateError, validatePredicate } from "./predicate";

const atom = (value: string): Atom =>
  ({ kind: "PATH", text: value, normalized: value, byteStart: 0, byteEnd: value.length, negated: false }) as Atom;

/** Milliseconds one call takes: the least of three runs, so that a busy machine does not count. */
function timed(fn: () => unknown): number {
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    fn();
    least = Math.min(least, performance.now() - start);
  }
  return least;
}

describe("user patterns run in linear time", () => {
  it("catastrophic backtracking patterns answer in well under 100 ms, short input or long", () => {
    for (const pattern of ["^(a+)+$", "(a|aa)+$", "^(\\w+\\s?)*$", "(x+x+)+y", "^(a|a?)+$"]) {
      const p = compilePredicate({ valuePattern: pattern });
      for (const n of [28, 10_000, 100_000]) {
        const value = `${"a".repeat(n)}!`;
        const ms = timed(() => matchAtom(p, atom(value), undefined));
        expect(ms, `${pattern} over ${n + 1} characters`).toBeLessThan(100);
      }
      // Linear: a megabyte takes about ten times as long as 100 KB, never the age of the universe.
      const megabyte = `${"a".repeat(1_000_000)}!`;
      expect(timed(() => matchAtom(p, atom(megabyte), undefined))).toBeLessThan(1_000);
    }
  });

  it("the command filter (always case-insensitive) too", () => {
    const p = compilePredicate({ commandPattern: "^(a+)+$" });
    const value = `${"a".repeat(30)}!`;
    const span = { atoms: [{ ...atom(value), kind: "COMMAND" } as Atom] };
    const ms = timed(() => matchAtom(p, span.atoms[0]!, undefined));
    expect(ms).toBeLessThan(100);
  });

  it("patterns up to the program limit stay under 100 ms over 100 KB", () => {
    const value = `${"ab1 ".repeat(25_000)}!`;
    for (const pattern of ["(\\w{99}){10}", "(.{0,90}a){10}b", "(a|b|c|d|\\w){500}$", "(\\pL{100}){9}"]) {
      const re = compileRegex(pattern, "i", "valuePattern");
      expect(
        timed(() => re.test(value)),
        pattern,
      ).toBeLessThan(100);
    }
  });

  it("refuses what RE2 cannot run, and programs over the limit, naming the field", () => {
    for (const [pattern, field] of [
      ["(a)\\1", "valuePattern"],
      ["(?=x)y", "valuePattern"],
      ["(?<!x)y", "commandPattern"],
      ["(\\w{1000}){10}", "commandPattern"],
    ] as const) {
      expect(() => compileRegex(pattern, "", field)).toThrow(PredicateError);
      const problems = validatePredicate(field === "valuePattern" ? { valuePattern: pattern } : { commandPattern: pattern });
      expect(problems.map((p) => p.field)).toEqual([field]);
    }
    expect(validatePredicate({ valuePattern: "x", valuePatternFlags: "x" })).toEqual([
      { field: "valuePattern", message: expect.stringContaining('unsupported flag "x"') },
    ]);
    expect(MAX_PATTERN_PROGRAM).toBeGreaterThan(1000);
  });

  it("keeps the usual syntax and flags", () => {
    const re = compileRegex("^/ETC/(?:hosts|passwd)$", "i", "valuePattern");
    expect(re.test("/etc/hosts")).toBe(true);
    expect(re.test("/etc/shadow")).toBe(false);
    expect(compileRegex("a.b", "s", "valuePattern").test("a\nb")).toBe(true);
    expect(compileRegex("^b", "m", "valuePattern").test("a\nb")).toBe(true);
    expect(compileRegex("(?<name>x)", "gu", "valuePattern").flags).toBe("u");
  });
});
