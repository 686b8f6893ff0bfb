import { describe, expect, it } from "vitest";
import { answerLabel, checkedTally, countOf, formatDay, formatDayTime, formatTime, provenanceWords } from "./format";

describe("formatDay", () => {
  it("names a UTC day by month and day, with its year only when it is not the page's", () => {
    expect(formatDay("2026-12-06")).toBe("Dec 6");
    expect(formatDay("2026-12-06", 2026)).toBe("Dec 6");
    expect(formatDay("2027-01-03", 2026)).toBe("Jan 3 2027");
    expect(formatDay("2026-12-31T23:59:59.000Z", 2026)).toBe("Dec 31");
    expect(formatDay(new Date("2026-02-01T00:30:00Z"))).toBe("Feb 1");
  });
  it("reads the day in UTC, as every time on the dashboard", () => {
    expect(formatDay("2026-12-06T23:30:00-05:00")).toBe("Dec 7");
  });
});

describe("formatDayTime", () => {
  it("adds the UTC minute to the day, and is shorter than the full time", () => {
    const at = new Date("2026-12-06T14:03:59Z");
    expect(formatDayTime(at, 2026)).toBe("Dec 6 14:03");
    expect(formatDayTime(at, 2025)).toBe("Dec 6 2026 14:03");
    expect(formatDayTime(at).length).toBeLessThan(formatTime(at).length);
  });
});

describe("answerLabel", () => {
  it("says an answer in words", () => {
    expect(answerLabel("INSUFFICIENT_EVIDENCE")).toBe("Insufficient evidence");
    expect(answerLabel("YES")).toBe("Yes");
    expect(answerLabel("NO")).toBe("No");
  });
});

describe("provenanceWords", () => {
  it("names a status as the grid's columns do: no pointer, never none", () => {
    expect(["DURABLE", "EXPIRING", "LOST", "NONE"].map(provenanceWords)).toEqual(["durable", "expiring", "lost", "no pointer"]);
  });
});

describe("countOf and checkedTally", () => {
  it("say one in the singular and any other count in the plural, with separators", () => {
    expect(countOf(1, "span")).toBe("1 span");
    expect(countOf(0, "span")).toBe("0 spans");
    expect(countOf(28963, "span")).toBe("28,963 spans");
    expect(countOf(2, "blocking span")).toBe("2 blocking spans");
  });
  it("tally the spans an answer checked and the sessions they are in", () => {
    expect(checkedTally(1, 1)).toBe("1 span checked in 1 session");
    expect(checkedTally(0, 0)).toBe("0 spans checked in 0 sessions");
    expect(checkedTally(1204, 3)).toBe("1,204 spans checked in 3 sessions");
    expect(checkedTally(5, 1)).toBe("5 spans checked in 1 session");
  });
});
