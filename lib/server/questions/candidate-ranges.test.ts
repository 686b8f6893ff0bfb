import { describe, expect, it } from "vitest";
import { compilePredicate } from "@/lib/evidence/questions";
import { atomsInScopeFrom } from "./candidate-ranges";
import type { Scope } from "./scope";

const PROJECT = "6163c94d-e325-471e-9440-663229b4291e";
const WHOLE: Scope = { projectId: PROJECT, sessionIds: null, from: null, to: null };
const WRITES = ["FILE_WRITE"] as const;

/** Each arm's lower and upper bound, in the order the arms read them. */
function bounds(prefixes: string[], scope = WHOLE) {
  const sql = atomsInScopeFrom(compilePredicate({ effectKinds: [...WRITES], valuePrefixes: prefixes }), scope);
  const arms = sql.text.split(" union all ");
  const values = sql.values.flat().filter((v): v is string => typeof v === "string" && v !== PROJECT && v !== "FILE_WRITE");
  return { arms: arms.length, text: sql.text, values };
}

describe("a predicate's prefix ranges, read one by one", () => {
  it("reads each value prefix as an arm of its own, and leaves out a prefix inside another", () => {
    const { arms, values } = bounds(["/etc/", "/lib/", "/lib64/", "/etc/app/"]);
    expect(arms).toBe(2);
    // "/lib64" starts with "/lib": its range is inside the other's, and an atom is read once.
    expect(values).toEqual(["/etc", "/etd", "/lib", "/lic"]);
  });

  it("reads the prefixes below a home as one covering range, filtered by the prefixes, and not what a value arm reads", () => {
    const { arms, text, values } = bounds(["/etc/", "~/.ssh/", "~/.bashrc", "~/.config/systemd/user/"]);
    expect(arms).toBe(2);
    expect(text).toContain("custodian_home_relative(e.normalized) ^@ any(");
    expect(text).toContain("not e.normalized ^@ any(");
    // The value arm's bounds, then the home prefixes for the filter, the value prefixes excluded,
    // and the covering range: the least `from` and the greatest `to` in code point order.
    expect(values).toEqual(["/etc", "/etd", ".ssh", ".bashrc", ".config/systemd/user", "/etc", ".bashrc", ".ssi"]);
  });

  it("orders the covering range by code point, as the C collation does, not by UTF-16 units", () => {
    // U+FF5E sorts below U+1F600 by code point and above it by UTF-16 unit (0xD83D).
    const { values } = bounds(["~/\u{ff5e}dir/", "~/\u{1f600}dir/"]);
    expect(values.at(-2)).toBe("\u{ff5e}dir");
    expect(values.at(-1)).toBe("\u{1f600}dis");
  });

  it("keeps the condition as it was where ranges are not read one by one", () => {
    const few: Scope = { ...WHOLE, sessionIds: ["0a0f4b1e-7a86-4d2b-9c53-6d1f3f0c2a11"] };
    expect(bounds(["/etc/"], few).arms).toBe(1);
    expect(bounds(["/etc/"], few).text).not.toContain("e.normalized");
    // "~/" alone has no upper bound, and a prefix past the indexed 500 characters narrows nothing.
    expect(bounds(["~/"]).arms).toBe(1);
    expect(bounds([`/${"x".repeat(600)}`]).arms).toBe(1);
  });
});
