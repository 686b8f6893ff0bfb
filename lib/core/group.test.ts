import { describe, expect, it } from "vitest";
import { groupBy } from "./group";

describe("groupBy", () => {
  it("keeps each group in the items' order and the groups in the order their keys first appear", () => {
    const rows = [
      { s: "b", n: 1 },
      { s: "a", n: 2 },
      { s: "b", n: 3 },
    ];
    expect([...groupBy(rows, (r) => r.s)]).toEqual([
      ["b", [rows[0], rows[2]]],
      ["a", [rows[1]]],
    ]);
    expect(groupBy([], (r: { s: string }) => r.s).size).toBe(0);
  });
});
