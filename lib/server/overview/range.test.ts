import { describe, expect, it } from "vitest";
import { parseOverviewRange, parseOverviewView, overviewWindow } from "./range";

describe("overview ranges", () => {
  it("defaults to 7 days and refuses anything not offered, naming the field", () => {
    expect(parseOverviewRange(undefined)).toBe("7d");
    expect(parseOverviewRange("")).toBe("7d");
    expect(parseOverviewRange("90d")).toBe("90d");
    for (const bad of ["1y", "7D", "7"])
      expect(() => parseOverviewRange(bad)).toThrow(
        expect.objectContaining({ code: "VALIDATION_FAILED", fields: [expect.objectContaining({ path: "range" })] }),
      );
  });

  it("24 hours are 24 hourly buckets ending in the current hour; days are UTC days ending today", () => {
    const now = new Date("2026-12-03T00:05:00Z");
    expect(overviewWindow("24h", now)).toEqual({
      range: "24h",
      bucket: "hour",
      from: "2026-12-02T01:00:00.000Z",
      buckets: 24,
      asOf: "2026-12-03T00:05:00.000Z",
    });
    expect(overviewWindow("30d", now)).toMatchObject({ bucket: "day", from: "2026-11-04T00:00:00.000Z", buckets: 30 });
    expect(overviewWindow("90d", new Date("2026-03-01T23:59:59Z"))).toMatchObject({
      from: "2025-12-02T00:00:00.000Z",
      buckets: 90,
    });
  });
});

describe("overview days", () => {
  const now = new Date("2026-12-06T10:00:00Z");

  it("reads the days the lists carry, filling an end left open, and refuses days it cannot chart, naming them", () => {
    expect(parseOverviewView({ range: "30d" }, now)).toEqual({ range: "30d" });
    expect(parseOverviewView({ from: "2026-12-01", to: "2026-12-03" }, now)).toEqual({
      range: "7d",
      days: { from: "2026-12-01", to: "2026-12-03" },
    });
    expect(parseOverviewView({ from: "2026-12-01" }, now).days).toEqual({ from: "2026-12-01", to: "2026-12-06" });
    expect(parseOverviewView({ to: "2026-12-03" }, now).days).toEqual({ from: "2026-11-27", to: "2026-12-03" });
    const refused = (q: { from?: string; to?: string }, path: string) =>
      expect(() => parseOverviewView(q, now)).toThrow(
        expect.objectContaining({ code: "VALIDATION_FAILED", fields: [expect.objectContaining({ path })] }),
      );
    refused({ from: "2026-02-30" }, "from");
    refused({ to: "12/03/2026" }, "to");
    refused({ from: "2026-12-04", to: "2026-12-03" }, "from");
    refused({ from: "2024-01-01", to: "2026-12-03" }, "from");
  });

  it("counts days in daily buckets from the first to the last, and stops at the end of the last", () => {
    const past = overviewWindow("7d", now, { from: "2026-11-01", to: "2026-11-03" });
    expect(past).toMatchObject({
      bucket: "day",
      from: "2026-11-01T00:00:00.000Z",
      buckets: 3,
      until: "2026-11-03T23:59:59.999Z",
    });
    const current = overviewWindow("7d", now, { from: "2026-12-05", to: "2026-12-06" });
    expect(current).toMatchObject({ buckets: 2, asOf: now.toISOString() });
    expect(current.until).toBeUndefined();
  });
});
