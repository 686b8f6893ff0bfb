import { describe, expect, it } from "vitest";
import { describeOutcomes, outcomeOfResult } from "./outcomes";

describe("outcomeOfResult", () => {
  it("reads exit codes and error flags, and never reads silence as success", () => {
    expect(outcomeOfResult({ exitCode: 0 })).toBe("SUCCEEDED");
    expect(outcomeOfResult({ exitCode: 100 })).toBe("FAILED");
    expect(outcomeOfResult({ exitCode: 0, isError: true })).toBe("FAILED");
    expect(outcomeOfResult({ isError: false })).toBe("SUCCEEDED");
    expect(outcomeOfResult({})).toBe("UNKNOWN");
  });
});

describe("describeOutcomes", () => {
  it("tallies attempts, most frequent first", () => {
    expect(describeOutcomes({ FAILED: 2, SUCCEEDED: 1 })).toBe("3 attempts: 2 failed, 1 succeeded");
    expect(describeOutcomes({ DECLINED: 1 })).toBe("1 attempt: 1 declined");
    expect(describeOutcomes({})).toBe("0 attempts");
  });
});
