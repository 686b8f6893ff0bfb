import { describe, expect, it } from "vitest";
import { prepareReceivedSeries } from "./received-series";

describe("prepareReceivedSeries", () => {
  it("labels each day short, the year named only off the last day's, and finds the tallest day", () => {
    const series = prepareReceivedSeries([
      { date: "2025-12-31", originals: 1, bytes: 300 },
      { date: "2026-01-01", originals: 0, bytes: 0 },
      { date: "2026-01-02", originals: 4, bytes: 1_200 },
    ]);
    expect(series.points).toEqual([
      { date: "2025-12-31", label: "Dec 31 2025", bytes: 300, originals: 1 },
      { date: "2026-01-01", label: "Jan 1", bytes: 0, originals: 0 },
      { date: "2026-01-02", label: "Jan 2", bytes: 1_200, originals: 4 },
    ]);
    expect(series.max).toBe(1_200);
  });

  it("draws nothing from no days", () => {
    expect(prepareReceivedSeries([])).toEqual({ points: [], max: 0 });
  });
});
