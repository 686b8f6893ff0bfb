import { describe, expect, it } from "vitest";
import type { SideEffectKind } from "@/lib/evidence/types";
import { capLedger, LEDGER_MAX_LIMIT } from "./ledger-cap";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const action = (name: string, minute: number, effects: SideEffectKind[], seq = minute) => ({
  name,
  seq,
  occurredAt: at(minute),
  effects: effects.map((effect) => ({ effect, target: name })),
});
const names = (list: Array<{ name: string }>) => list.map((a) => a.name);

describe("the ledger's cap", () => {
  const session = [
    action("rm -rf build", 1, ["FILE_DELETE"]),
    action("write a.ts", 2, ["FILE_WRITE"]),
    action("npm install", 3, ["PACKAGE_INSTALL"]),
    action("write b.ts", 4, ["FILE_WRITE"]),
    action("spawn server", 5, ["PROCESS_SPAWN"]),
    action("write c.ts", 6, ["FILE_WRITE"]),
    action("unclassified", 7, []),
  ];

  it("keeps the most consequential actions, and lists what it keeps most recent first", () => {
    expect(names(capLedger(session, 3))).toEqual(["write c.ts", "npm install", "rm -rf build"]);
    expect(names(capLedger(session, 2))).toEqual(["npm install", "rm -rf build"]);
  });

  it("among actions of equal weight keeps the most recent, by time and then by seq", () => {
    const writes = session.filter((a) => a.name.startsWith("write"));
    expect(names(capLedger(writes, 2))).toEqual(["write c.ts", "write b.ts"]);
    const sameInstant = [action("first", 9, ["FILE_WRITE"], 10), action("second", 9, ["FILE_WRITE"], 11)];
    expect(names(capLedger(sameInstant, 1))).toEqual(["second"]);
  });

  it("weighs an action by its heaviest effect, and leaves unclassified actions out first", () => {
    const mixed = [...session, action("write and push", 0, ["FILE_WRITE", "VCS_PUSH"])];
    expect(names(capLedger(mixed, 2))).toEqual(["rm -rf build", "write and push"]);
    expect(names(capLedger(session, session.length - 1))).not.toContain("unclassified");
    expect(names(capLedger(session, session.length))).toEqual([...names(session)].reverse());
  });

  it("keeps at least one and at most the maximum", () => {
    expect(names(capLedger(session, 0))).toEqual(["rm -rf build"]);
    const many = Array.from({ length: LEDGER_MAX_LIMIT + 10 }, (_, i) => action(`w${i}`, i, ["FILE_WRITE"]));
    const kept = capLedger(many, LEDGER_MAX_LIMIT + 10);
    expect(kept).toHaveLength(LEDGER_MAX_LIMIT);
    expect(kept[0]!.name).toBe(`w${LEDGER_MAX_LIMIT + 9}`);
  });
});
