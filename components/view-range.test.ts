import { describe, expect, it } from "vitest";
import { RANGED_SECTIONS, withViewRange } from "./view-range";

describe("withViewRange", () => {
  it("carries the range, and only the range, onto a link", () => {
    const current = new URLSearchParams("range=7d&state=lost&page=3");
    expect(withViewRange("/projects/demo/refusals", current)).toBe("/projects/demo/refusals?range=7d");
    expect(withViewRange("/projects/demo/audit", new URLSearchParams("from=2026-12-01&to=2026-12-03&act=original.pin"))).toBe(
      "/projects/demo/audit?from=2026-12-01&to=2026-12-03",
    );
  });

  it("keeps a link's own parameters, its own range first, and leaves a link alone when there is no range", () => {
    expect(withViewRange("/projects/demo/refusals?show=refusals", new URLSearchParams("range=30d"))).toBe(
      "/projects/demo/refusals?show=refusals&range=30d",
    );
    expect(withViewRange("/projects/demo/refusals?range=24h", new URLSearchParams("range=30d"))).toBe(
      "/projects/demo/refusals?range=24h",
    );
    expect(withViewRange("/projects/demo/sessions", new URLSearchParams("q=x"))).toBe("/projects/demo/sessions");
    expect(withViewRange("/projects/demo/sessions", null)).toBe("/projects/demo/sessions");
  });

  it("carries only values that are a range: a span page's byte offsets are not days", () => {
    expect(withViewRange("/projects/demo/sessions", new URLSearchParams("from=12&to=30"))).toBe("/projects/demo/sessions");
    expect(withViewRange("/projects/demo/sessions", new URLSearchParams("range=all&from=2026-12-01"))).toBe(
      "/projects/demo/sessions?from=2026-12-01",
    );
  });

  it("names the views that read a range", () => {
    expect([...RANGED_SECTIONS]).toEqual(["", "/sessions", "/refusals", "/evidence", "/audit"]);
    expect(RANGED_SECTIONS.has("/retention")).toBe(false);
  });
});
