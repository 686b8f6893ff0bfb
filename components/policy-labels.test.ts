import { describe, expect, it } from "vitest";
import { classLabel, distinctSessions, policyFieldLabel, policyValueLabel } from "./policy-labels";

describe("policy labels", () => {
  it("names every field a policy diff produces in words", () => {
    expect(policyFieldLabel("ttlDays.SIDE_EFFECTING")).toBe("Side-effecting TTL (days)");
    expect(policyFieldLabel("ttlDays.NARRATIVE")).toBe("Narrative TTL (days)");
    expect(policyFieldLabel("evidenceHorizonDays")).toBe("Evidence horizon (days)");
    expect(policyFieldLabel("evidenceWorkloads")).toBe("Evidence-demanding workloads");
    expect(policyFieldLabel("systemConfigPrefixes")).toBe("System config paths");
    expect(policyFieldLabel("somethingNew")).toBe("somethingNew");
  });

  it("says on and off for the workloads switch", () => {
    expect(policyValueLabel("evidenceWorkloads", false)).toBe("off");
    expect(policyValueLabel("ttlDays.STRUCTURED", 730)).toBe("730");
  });

  it("names classes as headings do", () => {
    expect(classLabel("SIDE_EFFECTING")).toBe("Side-effecting");
    expect(classLabel("STRUCTURED")).toBe("Structured");
  });

  it("counts sessions, not their rows", () => {
    const rows = ["a", "b", "a", "c", "a", "b"].map((sessionId) => ({ sessionId }));
    expect(distinctSessions(rows)).toBe(3);
  });
});
