import { describe, expect, it } from "vitest";
import { isAtRisk } from "./at-risk";
import { DAY_MS, DEFAULT_POLICY } from "./policy";
import type { OriginalFacts } from "./types";

const now = new Date("2026-12-01T00:00:00Z");
const occurredAt = new Date("2026-11-01T00:00:00Z");
const horizon = occurredAt.getTime() + DEFAULT_POLICY.evidenceHorizonDays * DAY_MS;
const held = (expiresAt: Date | null, extra: Partial<OriginalFacts> = {}): OriginalFacts => ({
  present: true,
  hashMatches: true,
  pinned: false,
  expiresAt,
  ...extra,
});
const soon = new Date(now.getTime() + 30 * DAY_MS);
const risk = (original: OriginalFacts | null, cls: "NARRATIVE" | "STRUCTURED" | "SIDE_EFFECTING" = "STRUCTURED") =>
  isAtRisk({ class: cls, occurredAt, original }, DEFAULT_POLICY, now);

describe("isAtRisk", () => {
  it("a held, unpinned original of an evidence-bearing span expiring before its horizon is at risk", () => {
    expect(risk(held(soon))).toBe(true);
    expect(risk(held(soon), "SIDE_EFFECTING")).toBe(true);
    expect(risk(held(new Date(horizon - 1)))).toBe(true);
  });

  it("is not at risk when narrative, pinned, without TTL, at or past the horizon, expired, deleted or damaged", () => {
    expect(risk(held(soon), "NARRATIVE")).toBe(false);
    expect(risk(held(soon, { pinned: true }))).toBe(false);
    expect(risk(held(null))).toBe(false);
    expect(risk(held(new Date(horizon)))).toBe(false);
    expect(risk(held(new Date(horizon + DAY_MS)))).toBe(false);
    expect(risk(held(now))).toBe(false);
    expect(risk(held(new Date(now.getTime() - DAY_MS)))).toBe(false);
    expect(risk(held(soon, { present: false }))).toBe(false);
    expect(risk(held(soon, { hashMatches: false }))).toBe(false);
    expect(risk(null)).toBe(false);
  });

  it("follows the policy's horizon", () => {
    const short = { ...DEFAULT_POLICY, evidenceHorizonDays: 10 };
    expect(isAtRisk({ class: "STRUCTURED", occurredAt, original: held(soon) }, short, now)).toBe(false);
  });
});
