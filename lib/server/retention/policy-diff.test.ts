import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { applyPolicyPatch, diffPolicies, isNarrowing } from "./policy-diff";

describe("policy diff", () => {
  it("names each changed field and marks shorter TTLs, a shorter horizon and removed prefixes as narrowing", () => {
    const after = applyPolicyPatch(DEFAULT_POLICY, {
      evidenceHorizonDays: 300,
      ttlDays: { SIDE_EFFECTING: 1, NARRATIVE: 60 },
      systemConfigPrefixes: ["/etc/", "/srv/conf/"],
    });
    const changes = diffPolicies(DEFAULT_POLICY, after);
    expect(changes.map((c) => [c.field, c.narrowing])).toEqual([
      ["evidenceHorizonDays", true],
      ["ttlDays.NARRATIVE", false],
      ["ttlDays.SIDE_EFFECTING", true],
      ["systemConfigPrefixes", true],
    ]);
    const prefixes = changes.find((c) => c.field === "systemConfigPrefixes")!;
    expect(prefixes.added).toEqual(["/srv/conf/"]);
    expect(prefixes.removed).toContain("/usr/");
    expect(isNarrowing(changes)).toBe(true);
  });

  it("a change that only keeps things longer or adds prefixes is not narrowing", () => {
    const after = applyPolicyPatch(DEFAULT_POLICY, {
      ttlDays: { STRUCTURED: 800 },
      systemConfigPrefixes: [...DEFAULT_POLICY.systemConfigPrefixes, "/srv/conf/"],
    });
    const changes = diffPolicies(DEFAULT_POLICY, after);
    expect(changes.map((c) => c.field)).toEqual(["ttlDays.STRUCTURED", "systemConfigPrefixes"]);
    expect(isNarrowing(changes)).toBe(false);
    expect(diffPolicies(DEFAULT_POLICY, applyPolicyPatch(DEFAULT_POLICY, {}))).toEqual([]);
  });

  it("switching evidence workloads off narrows, on does not", () => {
    const off = applyPolicyPatch(DEFAULT_POLICY, { evidenceWorkloads: false });
    expect(isNarrowing(diffPolicies(DEFAULT_POLICY, off))).toBe(true);
    expect(isNarrowing(diffPolicies(off, DEFAULT_POLICY))).toBe(false);
  });
});
