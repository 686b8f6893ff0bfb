import { describe, expect, it } from "vitest";
import { cellSafety, gridTally } from "./safety";

describe("cellSafety", () => {
  it("colours the grid as the gate reads it, and never a narrative span with nothing kept as safe", () => {
    const rows = (["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const).map((c) =>
      (["DURABLE", "EXPIRING", "LOST", "NONE"] as const).map((p) => cellSafety(c, p)),
    );
    expect(rows).toEqual([
      ["safe", "safe", "neutral", "neutral"],
      ["safe", "risk", "lost", "lost"],
      ["safe", "risk", "lost", "lost"],
    ]);
  });
});

describe("gridTally", () => {
  it("adds up the amber and red cells only: narrative spans with nothing kept count as neither", () => {
    const row = (durable: number, expiring: number, lost: number, none: number) => ({
      DURABLE: durable,
      EXPIRING: expiring,
      LOST: lost,
      NONE: none,
    });
    const grid = { NARRATIVE: row(1, 2, 40, 50), STRUCTURED: row(3, 4, 5, 6), SIDE_EFFECTING: row(7, 8, 9, 10) };
    expect(gridTally(grid)).toEqual({ atRisk: 4 + 8, lost: 5 + 6 + 9 + 10 });
  });
});
