import { describe, expect, it } from "vitest";
import type { ProjectOverview } from "@/lib/server/overview";
import { bucketLabels, fillBuckets, overviewLinks, prepareOverview, RANGES, rangeFromUrl, viewWords } from "./overview-series";

const zeroClasses = () => ({
  NARRATIVE: { originals: 0, bytes: 0 },
  STRUCTURED: { originals: 0, bytes: 0 },
  SIDE_EFFECTING: { originals: 0, bytes: 0 },
});

function overview(patch: Partial<ProjectOverview> = {}): ProjectOverview {
  return {
    window: { range: "7d", bucket: "day", from: "2026-11-27T00:00:00.000Z", buckets: 7, asOf: "2026-12-03T12:30:00.000Z" },
    refusals: { series: [], total: 0 },
    unaskedCompactions: { series: [], total: 0, spansReplaced: 0, askedTotal: 0 },
    atRisk: { spans: 0, sessions: 0 },
    lostNow: { spans: 0, sessions: 0 },
    atRiskAhead: {
      window: { bucket: "day", from: "2026-12-03T00:00:00.000Z", buckets: 7 },
      held: 0,
      series: [],
      firstExpiry: null,
    },
    evidenceLost: { series: [], deleted: 0, damaged: 0 },
    expiringThisWeek: {
      window: { bucket: "day", from: "2026-12-03T00:00:00.000Z", buckets: 7 },
      series: [],
      byClass: zeroClasses(),
      total: { originals: 0, bytes: 0 },
    },
    storage: { byClass: zeroClasses(), total: { originals: 0, bytes: 0 } },
    ...patch,
  };
}

describe("fillBuckets", () => {
  it("puts each sparse row in its hour and zero-fills the rest, ignoring rows outside the window", () => {
    const window = { bucket: "hour" as const, from: "2026-12-02T13:00:00.000Z", buckets: 24 };
    const points = fillBuckets(
      [
        { at: "2026-12-02T13:00:00.000Z", count: 1 },
        { at: "2026-12-03T12:00:00.000Z", count: 2 },
        { at: "2026-12-02T12:00:00.000Z", count: 9 },
        { at: "2026-12-03T13:00:00.000Z", count: 9 },
      ],
      window,
      ["count"],
    );
    expect(points).toHaveLength(24);
    expect(points[0]).toEqual({ label: "13:00", title: "2026-12-02 13:00 UTC", values: { count: 1 } });
    expect(points[23]).toEqual({ label: "12:00", title: "2026-12-03 12:00 UTC", values: { count: 2 } });
    expect(points.slice(1, 23).every((p) => p.values.count === 0)).toBe(true);
  });

  it("fills days across a month end, one value per key", () => {
    const points = fillBuckets(
      [{ at: "2026-12-01T00:00:00.000Z", deleted: 2, damaged: 1 }],
      { bucket: "day", from: "2026-11-29T00:00:00.000Z", buckets: 4 },
      ["deleted", "damaged"],
    );
    expect(points.map((p) => p.label)).toEqual(["Nov 29", "Nov 30", "Dec 1", "Dec 2"]);
    expect(points.map((p) => p.values)).toEqual([
      { deleted: 0, damaged: 0 },
      { deleted: 0, damaged: 0 },
      { deleted: 2, damaged: 1 },
      { deleted: 0, damaged: 0 },
    ]);
  });

  it("labels hours and days in UTC", () => {
    expect(bucketLabels(new Date("2026-12-03T07:00:00Z"), "hour")).toEqual({ label: "07:00", title: "2026-12-03 07:00 UTC" });
    expect(bucketLabels(new Date("2026-12-03T00:00:00Z"), "day")).toEqual({ label: "Dec 3", title: "2026-12-03" });
  });
});

describe("ranges", () => {
  it("offers the read model's ranges and reads only those from a URL", () => {
    expect(RANGES).toEqual(["24h", "7d", "30d", "90d"]);
    expect(rangeFromUrl("30d")).toBe("30d");
    expect(rangeFromUrl("1y")).toBeNull();
    expect(rangeFromUrl(null)).toBeNull();
  });
});

describe("prepareOverview", () => {
  it("says plainly when a range holds nothing, per chart", () => {
    const { charts } = prepareOverview(overview(), "ops");
    expect(Object.fromEntries(charts.map((c) => [c.id, c.empty]))).toEqual({
      refusals: "No refusals in the last 7 days",
      unasked: "No compactions without asking in the last 7 days",
      lost: "No evidence lost in the last 7 days",
      expiring: "No originals expire this week",
      storage: "No originals held",
    });
    const day = prepareOverview(overview({ window: { ...overview().window, range: "24h", bucket: "hour", buckets: 24 } }), "ops");
    expect(day.charts[0]!.empty).toBe("No refusals in the last 24 hours");
    expect(day.charts[0]!.title).toBe("Refusals per hour");
  });

  it("carries the totals beside each chart and one point per bucket", () => {
    const o = overview({
      refusals: { series: [{ at: "2026-12-02T00:00:00.000Z", count: 1234 }], total: 1234 },
      unaskedCompactions: {
        series: [{ at: "2026-11-27T00:00:00.000Z", count: 1, spansReplaced: 5 }],
        total: 1,
        spansReplaced: 5,
        askedTotal: 4,
      },
      atRisk: { spans: 3, sessions: 2 },
      expiringThisWeek: {
        ...overview().expiringThisWeek,
        series: [{ at: "2026-12-05T00:00:00.000Z", originals: 2, bytes: 2500 }],
        byClass: { ...zeroClasses(), STRUCTURED: { originals: 2, bytes: 2500 } },
        total: { originals: 2, bytes: 2500 },
      },
      storage: {
        byClass: {
          ...zeroClasses(),
          NARRATIVE: { originals: 1, bytes: 999 },
          SIDE_EFFECTING: { originals: 3, bytes: 1_500_000 },
        },
        total: { originals: 4, bytes: 1_500_999 },
      },
    });
    const charts = Object.fromEntries(prepareOverview(o, "ops").charts.map((c) => [c.id, c]));
    expect(charts.refusals!.summary).toBe("1,234 refusals in the last 7 days");
    expect(charts.refusals!.points.map((p) => p.values.count)).toEqual([0, 0, 0, 0, 0, 1234, 0]);
    expect(charts.refusals!.empty).toBeNull();
    expect(charts.unasked!.figures).toEqual([
      { label: "Without asking", value: "1" },
      { label: "Spans they replaced", value: "5" },
      { label: "Asked the gate", value: "4" },
    ]);
    expect(charts.unasked!.summary).toBe("1 compaction without asking the gate in the last 7 days, replacing 5 spans");
    expect(charts.lost!.figures[0]).toEqual({ label: "Spans at risk now", value: "3" });
    expect(charts.lost!.link.href).toBe("/projects/ops/sessions?state=at-risk&range=7d");
    expect(charts.lost!.note).toBe(
      "At risk and lost now: in the sessions active in the last 7 days, as the sessions list counts them.",
    );
    expect(charts.expiring!.summary).toBe("2 originals (2.5 kB) expire by 2026-12-09");
    expect(charts.expiring!.points.map((p) => p.values.originals)).toEqual([0, 0, 2, 0, 0, 0, 0]);
    expect(charts.expiring!.figures.find((f) => f.label === "Structured")).toEqual({ label: "Structured", value: "2" });
    expect(charts.storage!.points.map((p) => [p.label, p.values.bytes])).toEqual([
      ["narrative", 999],
      ["structured", 0],
      ["side-effecting", 1_500_000],
    ]);
    expect(charts.storage!.figures[2]).toEqual({ label: "Side-effecting", value: "1.5 MB (3 originals)" });
  });

  it("links into the filtered lists of the project, its slug escaped", () => {
    expect(overviewLinks("ops team", { range: "24h" })).toEqual({
      refusals: "/projects/ops%20team/refusals?show=refusals&range=24h",
      unasked: "/projects/ops%20team/sessions?state=unasked&range=24h",
      atRisk: "/projects/ops%20team/sessions?state=at-risk&range=24h",
      lost: "/projects/ops%20team/sessions?state=lost&range=24h",
      retention: "/projects/ops%20team/retention",
    });
  });

  it("counts in the URL's days when it names them, says so, and links the lists with the same days", () => {
    const days = { from: "2026-11-30", to: "2026-12-02" };
    const base = overview();
    const o = overview({ window: { ...base.window, days, from: "2026-11-30T00:00:00.000Z", buckets: 3 } });
    const charts = Object.fromEntries(prepareOverview(o, "ops").charts.map((c) => [c.id, c]));
    expect(charts.refusals!.empty).toBe("No refusals from Nov 30 to Dec 2");
    expect(charts.refusals!.points.map((p) => p.label)).toEqual(["Nov 30", "Dec 1", "Dec 2"]);
    expect(charts.refusals!.link.href).toBe("/projects/ops/refusals?show=refusals&from=2026-11-30&to=2026-12-02");
    expect(charts.unasked!.link.href).toBe("/projects/ops/sessions?state=unasked&from=2026-11-30&to=2026-12-02");
    expect(charts.lost!.link.href).toBe("/projects/ops/sessions?state=lost&from=2026-11-30&to=2026-12-02");
    expect(viewWords({ range: "7d", days: { from: "2026-12-02", to: "2026-12-02" } }, 2026)).toBe("on Dec 2");
    expect(viewWords({ range: "7d", days: { from: "2025-12-30", to: "2026-01-02" } }, 2026)).toBe("from Dec 30 2025 to Jan 2");
    expect(viewWords({ range: "30d" })).toBe("in the last 30 days");
  });
});
