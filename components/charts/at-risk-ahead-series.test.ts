import { describe, expect, it } from "vitest";
import type { AtRiskAhead, ProjectOverview } from "@/lib/server/overview";
import { prepareAtRiskAhead, runningSplit } from "./at-risk-ahead-series";

const week = (series: AtRiskAhead["series"], held: number, firstExpiry: string | null = series[0]?.at ?? null): AtRiskAhead => ({
  window: { bucket: "day", from: "2026-12-03T00:00:00.000Z", buckets: 7 },
  held,
  series,
  firstExpiry,
});
const window = {
  range: "7d",
  bucket: "day",
  from: "2026-11-27T00:00:00.000Z",
  buckets: 7,
  asOf: "2026-12-03T12:30:00.000Z",
} as const;
const overview = (atRiskAhead: AtRiskAhead, view: Partial<ProjectOverview["window"]> = {}) =>
  ({ atRiskAhead, window: { ...window, ...view } }) as ProjectOverview;

describe("runningSplit", () => {
  it("moves each bucket's expiring originals from held to lost for good, zero-filling calm days", () => {
    const points = runningSplit(
      week(
        [
          { at: "2026-12-03T00:00:00.000Z", expiring: 2 },
          { at: "2026-12-05T00:00:00.000Z", expiring: 1 },
          { at: "2026-12-09T00:00:00.000Z", expiring: 4 },
        ],
        10,
      ),
    );
    expect(points.map((p) => p.title)).toEqual([
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
      "2026-12-06",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
    ]);
    expect(points.map((p) => p.values)).toEqual([
      { held: 8, lost: 2 },
      { held: 8, lost: 2 },
      { held: 7, lost: 3 },
      { held: 7, lost: 3 },
      { held: 7, lost: 3 },
      { held: 7, lost: 3 },
      { held: 3, lost: 7 },
    ]);
    // Every bar stacks to the spans at risk now.
    for (const p of points) expect(p.values.held + p.values.lost).toBe(10);
  });

  it("labels hours when the window is hourly", () => {
    const points = runningSplit({
      window: { bucket: "hour", from: "2026-12-03T12:00:00.000Z", buckets: 24 },
      held: 3,
      series: [{ at: "2026-12-03T13:00:00.000Z", expiring: 3 }],
      firstExpiry: "2026-12-03T13:00:00.000Z",
    });
    expect(points).toHaveLength(24);
    expect(points[0]).toEqual({ label: "12:00", title: "2026-12-03 12:00 UTC", values: { held: 3, lost: 0 } });
    expect(points[1]!.values).toEqual({ held: 0, lost: 3 });
  });
});

describe("prepareAtRiskAhead", () => {
  it("says what it is (a projection of the range's sessions, not history), with its figures and where to act", () => {
    const chart = prepareAtRiskAhead(overview(week([{ at: "2026-12-04T00:00:00.000Z", expiring: 1 }], 5)), "demo");
    expect(chart.title).toBe("Spans at risk ahead");
    expect(chart.note).toMatch(
      /^The spans of the sessions active in the last 7 days, projected over the next 7 days from their originals' stored expiries/,
    );
    expect(chart.note).toMatch(/Past figures are not shown/);
    expect(chart.summary).toBe(
      "Of 5 spans at risk with the original held, in the sessions active in the last 7 days, 1 loses it by the end of 2026-12-09 if nobody pins or extends",
    );
    expect(chart.figures).toEqual([
      { label: "At risk, original held now", value: "5" },
      { label: "Lost within the next 7 days", value: "1" },
      { label: "Still held at the end", value: "4" },
      { label: "First expiry", value: "Dec\u00a04" },
    ]);
    expect(chart.keys.map((k) => k.key)).toEqual(["held", "lost"]);
    expect(chart.empty).toBeNull();
    // The retention page's list of the same spans: the same range, at the list.
    expect(chart.link.href).toBe("/projects/demo/retention?range=7d#at-risk");
  });

  it("names the days of a range of days, and carries them to the list", () => {
    const chart = prepareAtRiskAhead(
      overview(week([], 2, "2027-02-01T09:00:00.000Z"), { days: { from: "2026-11-02", to: "2026-11-05" } }),
      "demo",
    );
    expect(chart.summary).toMatch(/in the sessions active from Nov 2 to Nov 5, 0 lose it/);
    expect(chart.link.href).toBe("/projects/demo/retention?from=2026-11-02&to=2026-11-05#at-risk");
  });

  it("says in words, not seven equal bars, when none of them expires within the window, and when the first does", () => {
    const chart = prepareAtRiskAhead(overview(week([], 27, "2027-01-20T22:00:00.000Z")), "demo");
    expect(chart.empty).toBe("None of them loses its original within the next 7 days; the first expires on Jan 20 2027");
    expect(chart.figures.at(-1)).toEqual({ label: "First expiry", value: "Jan\u00a020\u00a02027" });
  });

  it("says so when nothing is at risk", () => {
    expect(prepareAtRiskAhead(overview(week([], 0)), "demo").empty).toBe(
      "No spans at risk with their original held in the sessions active in the last 7 days",
    );
  });
});
