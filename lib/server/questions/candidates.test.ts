import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SYSTEM_CONFIG_PREFIXES } from "@/lib/evidence/policy";
import { compilePredicate, compileRegex, matchAtom, SYSTEM_PACKAGE_MANAGER_PATTERN } from "@/lib/evidence/questions";
import type { Atom } from "@/lib/evidence/types";
import { prefixRange, prefixUpperBound, regexNarrowing, requiredLiterals } from "./candidates";

/** Code point order, which is the byte order of UTF-8 and so of the "C" collation. */
function compare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** As custodian_home_relative in the migration: the path below its home directory, or null. */
function homeRelative(path: string): string | null {
  if (path === "/root") return "";
  if (path.startsWith("/root/")) return path.slice(6);
  const m = /^\/(home|Users)\/[^/]+(\/|$)/.exec(path);
  return m ? path.replace(/^\/(home|Users)\/[^/]+\/?/, "") : null;
}

function inRange(value: string, prefix: string): boolean {
  const range = prefixRange(prefix);
  const subject = range.on === "home" ? homeRelative(value) : value;
  if (subject === null) return false;
  return compare(subject, range.from) >= 0 && (range.to === null || compare(subject, range.to) < 0);
}

const pathAtom = (normalized: string): Atom => ({
  kind: "PATH",
  text: normalized,
  normalized,
  byteStart: 0,
  byteEnd: normalized.length,
});

describe("candidate ranges for value prefixes", () => {
  it("the upper bound is above every extension of the prefix and the least such string", () => {
    expect(prefixUpperBound("/etc")).toBe("/etd");
    expect(prefixUpperBound("a\u{10FFFF}")).toBe("b");
    expect(prefixUpperBound("\u{D7FF}")).toBe("\u{E000}");
    expect(prefixUpperBound("")).toBeNull();
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), fc.string({ unit: "grapheme" }), (prefix, rest) => {
        const upper = prefixUpperBound(prefix);
        return upper === null || (compare(prefix + rest, upper) < 0 && compare(prefix, upper) < 0);
      }),
    );
  });

  it("hold every value the engine matches, for the policy's prefixes and arbitrary ones", () => {
    const segment = fc.constantFrom(
      "etc",
      "etcd",
      "usr",
      ".ssh",
      ".bashrc",
      ".bashrc.bak",
      "boot",
      "lib",
      "systemd",
      "var",
      "home",
      "root",
      "Users",
      "alice",
      "app",
      ".",
      "..",
      "",
      "ü",
      "x y",
    );
    const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
    const prefix = fc.oneof(
      fc.constantFrom(...DEFAULT_SYSTEM_CONFIG_PREFIXES, "/", "~/", "~/.ssh", "/etc", "/lib/systemd/"),
      path,
      path.map((p) => `~${p}`),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(path, prefix, (value, pre) => {
        const p = compilePredicate({ valuePrefixes: [pre] });
        return matchAtom(p, pathAtom(value), "/home/alice/app") === "NO_MATCH" || inRange(value, pre);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("literals a regular expression requires", () => {
  it("reads plain words, and a mandatory top-level group of words", () => {
    expect(requiredLiterals("curl")).toEqual(["curl"]);
    expect(requiredLiterals(SYSTEM_PACKAGE_MANAGER_PATTERN, "i")).toContain("apt-get");
    expect(requiredLiterals("^(?:sudo|doas)\\s")).toEqual(["sudo", "doas"]);
    expect(requiredLiterals("(sudo|doas)+x")).toEqual(["sudo", "doas"]);
  });

  it("declines what it cannot vouch for", () => {
    for (const source of [
      "a|b",
      "(?:sudo|doas)?x",
      "(?:sudo|doas)*",
      "(?:sudo|doas){0,1}",
      "(?=sudo)",
      "(?:sud.|doas)",
      "x(?:a|b)|y",
      "[(]sudo|x",
      "\\(sudo|doas\\)",
      // RE2 reads "]" first in a class, and "[:alpha:]", as members: the group is inside the class.
      "[]a(sudo)]",
      "[[:alpha:](sudo)]",
      "[^](sudo)]",
      "\\Q(\\E(sudo)|x",
    ]) {
      expect(requiredLiterals(source), source).toBeNull();
    }
    expect(requiredLiterals("\\Q(x|\\E(sudo|doas)")).toEqual(["sudo", "doas"]);
  });

  it("narrows case-insensitive patterns as RE2 folds them: KELVIN SIGN is k, LONG S is s", () => {
    const sql = (source: string, flags: string) => regexNarrowing("a", { source, flags })!.values[0];
    expect(sql("(?:sudo|kill)", "i")).toBe("([sS\u017f][uU][dD][oO]|[kK\u212a][iI][lL][lL])");
    expect(sql("(?i)(?:sudo|kill)", "")).toBe(sql("(?:sudo|kill)", "i"));
    expect(sql("(?:sudo|kill)", "u")).toBe("(sudo|kill)");
  });

  it("every string the expression matches contains one of them", () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_-]{1,5}$/);
    const piece = fc.oneof(
      word,
      fc.constantFrom(
        "\\s",
        "\\d+",
        ".",
        "^",
        "$",
        "[a-z]",
        "(?:\\s|$)",
        "(?:x|y)?",
        "[|(]",
        "[]|(]",
        "[[:alpha:]|]",
        "\\Q(|\\E",
      ),
    );
    const source = fc
      .tuple(
        fc.array(piece, { maxLength: 3 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("", "+"),
        fc.array(piece, { maxLength: 3 }),
      )
      .map(
        ([before, alternatives, quantifier, after]) =>
          `${before.join("")}(?:${alternatives.join("|")})${quantifier}${after.join("")}`,
      );
    const subject = fc.string({ unit: fc.constantFrom(..."abcsudoxyz AB-_019|(ſK\u212A".split("")), maxLength: 24 });
    fc.assert(
      fc.property(source, subject, fc.constantFrom("", "i"), (src, s, flags) => {
        const literals = requiredLiterals(src, flags);
        if (!literals || !compileRegex(src, flags, "valuePattern").test(s)) return true;
        const haystack = flags
          ? s
              .replace(/\u212a/g, "k")
              .replace(/\u017f/g, "s")
              .toLowerCase()
          : s;
        return literals.some((l) => haystack.includes(flags ? l.toLowerCase() : l));
      }),
      { numRuns: 5000 },
    );
  });
});
