import { describe, expect, it } from "vitest";
import {
  activeFilterCount,
  filterSummary,
  REFUSAL_FILTER_DEFAULTS,
  REFUSAL_FILTER_GROUPS,
  SESSION_FILTER_DEFAULTS,
  SESSION_FILTER_GROUPS,
} from "./filter-count";

describe("activeFilterCount", () => {
  it("counts nothing for a list's defaults, and the order is never a filter", () => {
    const query = { page: 1, sort: "oldest", show: "both", requester: "" };
    expect(activeFilterCount(query, REFUSAL_FILTER_GROUPS, REFUSAL_FILTER_DEFAULTS)).toBe(0);
  });

  it("counts each set filter once, a range and its days as one", () => {
    const query = { show: "refusals", cellClass: "STRUCTURED", range: "7d", from: "2026-12-01", to: "2026-12-06" };
    expect(activeFilterCount(query, REFUSAL_FILTER_GROUPS, REFUSAL_FILTER_DEFAULTS)).toBe(3);
  });

  it("counts the sessions list's filters, its any-state default left out", () => {
    expect(activeFilterCount({ state: "any", sort: "refusals" }, SESSION_FILTER_GROUPS, SESSION_FILTER_DEFAULTS)).toBe(0);
    expect(activeFilterCount({ q: "deploy", state: "lost" }, SESSION_FILTER_GROUPS, SESSION_FILTER_DEFAULTS)).toBe(2);
  });
});

describe("filterSummary", () => {
  it("says how many filters are active, and nothing when none is", () => {
    expect(filterSummary(0)).toBe("Filters");
    expect(filterSummary(1)).toBe("Filters (1 active)");
    expect(filterSummary(4)).toBe("Filters (4 active)");
  });
});
