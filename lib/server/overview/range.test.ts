import { describe, expect, it } from "vitest";
import { parseOverviewRange, overviewWindow } from "./range";

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
