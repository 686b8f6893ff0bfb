import { describe, expect, it } from "vitest";
import { changeFieldLabel, classLabel, distinctSessions, policyFieldLabel, policyValueLabel, saveNote } from "./policy-labels";

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

  it("notes only the warnings about fields the save changed, a TTL's also when the horizon moved", () => {
    const warnings = [
      { field: "ttlDays.STRUCTURED", message: "shorter than the evidence horizon (400 days)" },
      { field: "ttlDays.SIDE_EFFECTING", message: "shorter than the evidence horizon (400 days)" },
      { field: "evidenceWorkloads", message: "evidence workloads are off" },
    ];
    expect(saveNote(warnings, [{ field: "ttlDays.SIDE_EFFECTING" }])).toBe(
      " Note: Side-effecting TTL (days): shorter than the evidence horizon (400 days).",
    );
    expect(saveNote(warnings, [{ field: "ttlDays.NARRATIVE" }])).toBe("");
    expect(saveNote(warnings, [{ field: "evidenceHorizonDays" }])).toBe(
      " Note: Structured TTL (days): shorter than the evidence horizon (400 days); Side-effecting TTL (days): shorter than the evidence horizon (400 days).",
    );
    expect(saveNote(warnings, [{ field: "evidenceWorkloads" }])).toBe(
      " Note: Evidence-demanding workloads: evidence workloads are off.",
    );
    expect(saveNote([], [{ field: "ttlDays.STRUCTURED" }])).toBe("");
  });
});

describe("changeFieldLabel", () => {
  it("words an audit change's field, a policy field as the forms name it", () => {
    expect(changeFieldLabel("pinned")).toBe("Pinned");
    expect(changeFieldLabel("exportSha256")).toBe("Export SHA-256");
    expect(changeFieldLabel("movedToLost")).toBe("Moved to lost");
    expect(changeFieldLabel("question.anyOf")).toBe("Question: any of");
    expect(changeFieldLabel("ttlDays.SIDE_EFFECTING")).toBe("Side-effecting TTL (days)");
    expect(changeFieldLabel("evidenceHorizonDays")).toBe("Evidence horizon (days)");
  });
});
