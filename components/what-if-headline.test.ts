import { describe, expect, it } from "vitest";
import { whatIfHeadline } from "./what-if-headline";

const outlook = (deleted: number[], answers: number) => ({
  days: deleted.map((originalsDeleted) => ({ originalsDeleted })),
  questionsAffected: Array.from({ length: answers }, (_, i) => ({ i })),
});

describe("whatIfHeadline", () => {
  it("sums the proposal's deletions over its days and counts its changed answers, the current policy's beside them", () => {
    expect(whatIfHeadline({ horizonDays: 30, current: outlook([0, 2, 0], 0), proposed: outlook([10, 0, 3], 6) })).toBe(
      "13 originals deleted, 6 answers turn to insufficient evidence within 30 days (current policy: 2 deleted, 0 insufficient).",
    );
  });

  it("speaks of one in the singular, and of thousands with separators", () => {
    expect(whatIfHeadline({ horizonDays: 1, current: outlook([1_200], 1), proposed: outlook([1], 1) })).toBe(
      "1 original deleted, 1 answer turns to insufficient evidence within 1 day (current policy: 1,200 deleted, 1 insufficient).",
    );
  });

  it("says the answers are a floor when the question search stopped at its bounds", () => {
    expect(
      whatIfHeadline({ horizonDays: 90, current: outlook([], 0), proposed: outlook([4], 2), questionsTruncated: true }),
    ).toContain("at least 2 answers turn");
  });
});
