import { describe, expect, it } from "vitest";
import { dayParam, rangeParam, rangeStartDay, timeWindow } from "./time-range";

const NOW = new Date("2026-12-06T10:30:00.000Z");

describe("the project views' time range", () => {
  it("reads a preset as the overview's buckets up to now, and days as whole UTC days, the last inclusive", () => {
    // The current hour and the 23 before it; the current UTC day and the six before it.
    expect(timeWindow({ range: "24h" }, NOW)).toEqual({ since: new Date("2026-12-05T11:00:00.000Z"), until: undefined });
    expect(timeWindow({ range: "7d" }, NOW).since).toEqual(new Date("2026-11-30T00:00:00.000Z"));
    expect(timeWindow({ from: "2026-12-01", to: "2026-12-03" }, NOW)).toEqual({
      since: new Date("2026-12-01T00:00:00.000Z"),
      until: new Date("2026-12-04T00:00:00.000Z"),
    });
  });

  it("lets days win over a preset, and leaves both ends open with neither", () => {
    expect(timeWindow({ range: "90d", from: "2026-12-01" }, NOW).since).toEqual(new Date("2026-12-01T00:00:00.000Z"));
    expect(timeWindow({ range: "90d", to: "2026-12-02" }, NOW)).toEqual({
      since: new Date("2026-09-08T00:00:00.000Z"),
      until: new Date("2026-12-03T00:00:00.000Z"),
    });
    expect(timeWindow({}, NOW)).toEqual({ since: undefined, until: undefined });
  });

  it("names the day a preset starts on, and refuses a range it does not offer", () => {
    expect(rangeStartDay("7d", NOW)).toBe("2026-11-30");
    expect(rangeStartDay("24h", NOW)).toBe("2026-12-05");
    expect(rangeParam.safeParse("7d").success).toBe(true);
    expect(rangeParam.safeParse("1y").success).toBe(false);
  });
});

describe("dayParam", () => {
  it("takes a real calendar day in the years Postgres round-trips, and refuses anything else", () => {
    expect(dayParam.parse("2026-12-06")).toBe("2026-12-06");
    for (const bad of ["2026-02-30", "2026-12-6", "06-12-2026", "0000-01-01", "1899-12-31", "9999-01-01", "2026-12-06T00:00"]) {
      expect(dayParam.safeParse(bad).success, bad).toBe(false);
    }
  });
});
