import { describe, expect, it } from "vitest";
import { cellSafety } from "./safety";

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
