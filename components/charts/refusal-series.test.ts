import { describe, expect, it } from "vitest";
import { prepareRefusalSeries } from "./refusal-series";

describe("prepareRefusalSeries", () => {
  const to = new Date("2026-12-02T15:00:00Z");

  it("zero-fills every day of the window and sums counts per cell", () => {
    const series = prepareRefusalSeries(
      [
        { day: "2026-12-01", cellClass: "SIDE_EFFECTING", cellProvenance: "NONE", count: 2 },
        { day: "2026-12-01", cellClass: "SIDE_EFFECTING", cellProvenance: "NONE", count: 1 },
        { day: "2026-12-02", cellClass: "STRUCTURED", cellProvenance: "EXPIRING", count: 4 },
      ],
      to,
      3,
    );
    expect(series.keys).toEqual(["side-effecting × no pointer", "structured × expiring"]);
    expect(series.points).toEqual([
      { day: "2026-11-30", label: "Nov 30", "side-effecting × no pointer": 0, "structured × expiring": 0 },
      { day: "2026-12-01", label: "Dec 1", "side-effecting × no pointer": 3, "structured × expiring": 0 },
      { day: "2026-12-02", label: "Dec 2", "side-effecting × no pointer": 0, "structured × expiring": 4 },
    ]);
  });

  it("drops counts outside the window and has no series when nothing was refused", () => {
    const series = prepareRefusalSeries(
      [{ day: "2026-10-01", cellClass: "STRUCTURED", cellProvenance: "LOST", count: 9 }],
      to,
      2,
    );
    expect(series.points.map((p) => p["structured × lost"])).toEqual([0, 0]);
    expect(prepareRefusalSeries([], to, 2)).toEqual({
      keys: [],
      points: [
        { day: "2026-12-01", label: "Dec 1" },
        { day: "2026-12-02", label: "Dec 2" },
      ],
    });
  });
});
