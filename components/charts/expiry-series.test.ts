import { describe, expect, it } from "vitest";
import { mondayOf, prepareExpirySeries } from "./expiry-series";

describe("prepareExpirySeries", () => {
  it("starts on the Monday of the current week and zero-fills each week per class", () => {
    const from = new Date("2026-12-02T10:00:00Z"); // a Wednesday
    expect(mondayOf(from).toISOString().slice(0, 10)).toBe("2026-11-30");
    const series = prepareExpirySeries(
      [
        { week: "2026-12-07", class: "STRUCTURED", count: 3 },
        { week: "2026-12-07", class: "SIDE_EFFECTING", count: 1 },
        { week: "2027-03-01", class: "STRUCTURED", count: 8 },
      ],
      from,
      2,
    );
    expect(series.keys).toEqual(["STRUCTURED", "SIDE_EFFECTING"]);
    expect(series.names).toEqual({ STRUCTURED: "Structured", SIDE_EFFECTING: "Side-effecting" });
    expect(series.points).toEqual([
      { week: "2026-11-30", label: "Nov 30", title: "Week of Nov 30", STRUCTURED: 0, SIDE_EFFECTING: 0 },
      { week: "2026-12-07", label: "Dec 7", title: "Week of Dec 7", STRUCTURED: 3, SIDE_EFFECTING: 1 },
      { week: "2026-12-14", label: "Dec 14", title: "Week of Dec 14", STRUCTURED: 0, SIDE_EFFECTING: 0 },
    ]);
  });

  it("leaves the year off the axis and puts it in the tooltip of a week in another year", () => {
    const series = prepareExpirySeries([], new Date("2026-12-30T10:00:00Z"), 1);
    expect(series.points.map((p) => [p.label, p.title])).toEqual([
      ["Dec 28", "Week of Dec 28"],
      ["Jan 4", "Week of Jan 4 2027"],
    ]);
  });
});
