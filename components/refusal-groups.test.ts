import { describe, expect, it } from "vitest";
import { type GroupableRefusal, groupRefusals } from "./refusal-groups";

const refusal = (id: string, requestId: string | null, seq: number, over: Partial<GroupableRefusal> = {}): GroupableRefusal => ({
  id,
  occurredAt: "2026-12-06T10:00:00.000Z",
  sessionId: "s1",
  sessionTitle: "Configure staging",
  spanId: `span-${id}`,
  seq,
  cellClass: "SIDE_EFFECTING",
  cellProvenance: "EXPIRING",
  reason: "a summary would lose the write",
  requester: "runtime:claude",
  atomsAtRisk: 2,
  requestId,
  ...over,
});

describe("groupRefusals", () => {
  it("makes one group per gate request, in the place of its first row, its spans by seq and its reason once", () => {
    const groups = groupRefusals([
      refusal("a", "req-1", 7),
      refusal("b", "req-2", 1, { reason: "the original expires before its horizon" }),
      refusal("c", "req-1", 3),
      refusal("d", "req-1", 5, { cellClass: "STRUCTURED", atomsAtRisk: 1 }),
    ]);
    expect(groups.map((g) => g.key)).toEqual(["s1/req-1", "s1/req-2"]);
    expect(groups[0]!.refusals.map((r) => r.seq)).toEqual([3, 5, 7]);
    expect(groups[0]!.first.id).toBe("a");
    expect(groups[0]!.reasons).toEqual(["a summary would lose the write"]);
    expect(groups[0]!.cells).toEqual([
      { cellClass: "SIDE_EFFECTING", cellProvenance: "EXPIRING" },
      { cellClass: "STRUCTURED", cellProvenance: "EXPIRING" },
    ]);
    expect(groups[0]!.atomsAtRisk).toBe(5);
    expect(groups[1]!.reasons).toEqual(["the original expires before its horizon"]);
  });

  it("keeps each reason once when a request's spans were refused for different ones", () => {
    const [group] = groupRefusals([
      refusal("a", "req-1", 1),
      refusal("b", "req-1", 2, { reason: "other" }),
      refusal("c", "req-1", 3),
    ]);
    expect(group!.reasons).toEqual(["a summary would lose the write", "other"]);
  });

  it("leaves a refusal with no recorded request alone, and never joins requests of two sessions", () => {
    const groups = groupRefusals([
      refusal("a", null, 1),
      refusal("b", null, 2),
      refusal("c", "req-1", 3),
      refusal("d", "req-1", 4, { sessionId: "s2" }),
    ]);
    expect(groups.map((g) => g.refusals.map((r) => r.id))).toEqual([["a"], ["b"], ["c"], ["d"]]);
  });
});
