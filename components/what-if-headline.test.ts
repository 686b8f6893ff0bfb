import { describe, expect, it } from "vitest";
import { whatIfHeadline } from "./what-if-headline";

const outlook = (deleted: number[], answers: number) => ({
  days: deleted.map((originalsDeleted) => ({ originalsDeleted })),
  questionsAffected: Array.from({ length: answers }, (_, i) => ({ i })),
});

describe("whatIfHeadline", () => {
  it("sums the proposal's deletions over its days and counts its changed answers, the current policy's beneath", () => {
    expect(whatIfHeadline({ horizonDays: 30, current: outlook([0, 2, 0], 0), proposed: outlook([10, 0, 3], 6) })).toEqual({
      headline: "13 originals deleted, 6 answers turn insufficient within 30 days",
      current: "Under the current policy: 2 originals deleted, 0 answers insufficient.",
    });
  });

  it("speaks of one in the singular, and of thousands with separators", () => {
    expect(whatIfHeadline({ horizonDays: 1, current: outlook([1_200], 1), proposed: outlook([1], 1) })).toEqual({
      headline: "1 original deleted, 1 answer turns insufficient within 1 day",
      current: "Under the current policy: 1,200 originals deleted, 1 answer insufficient.",
    });
  });

  it("says the answers are a floor when the question search stopped at its bounds", () => {
    const { headline, current } = whatIfHeadline({
      horizonDays: 90,
      current: outlook([], 0),
      proposed: outlook([4], 2),
      questionsTruncated: true,
    });
    expect(headline).toBe("4 originals deleted, at least 2 answers turn insufficient within 90 days");
    expect(current).toContain("at least 0 answers");
  });
});
