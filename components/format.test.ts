import { describe, expect, it } from "vitest";
import { answerLabel, formatDay, formatDayTime, formatTime, provenanceWords } from "./format";

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
