import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY, horizonFor } from "./policy";
import { isRetrievable, provenanceStatus, provenanceWeakness, weakestStatus } from "./provenance";
import { T0, daysAfter, originals } from "./testkit";
import type { OriginalFacts, ProvenanceStatus } from "./types";

const policy = DEFAULT_POLICY; // horizon 400 days
const occurredAt = T0;
const now = daysAfter(T0, 10);
const status = (original: OriginalFacts | null, hasPointer = true, at = now) =>
  provenanceStatus({ hasPointer, original, occurredAt }, policy, at);

describe("provenanceStatus", () => {
  it("is NONE without a pointer, whatever the original", () => {
    expect(status(originals.forever(), false)).toBe("NONE");
    expect(status(null, false)).toBe("NONE");
  });

  it("is LOST when the original is missing, deleted or corrupt", () => {
    expect(status(null)).toBe("LOST");
    expect(status(originals.deleted())).toBe("LOST");
    expect(status(originals.corrupt())).toBe("LOST");
  });

  it("a hash mismatch is LOST even when pinned: a hold cannot repair bytes", () => {
    expect(status(originals.corrupt(true))).toBe("LOST");
  });

  it("is DURABLE without TTL", () => {
    expect(status(originals.forever())).toBe("DURABLE");
  });

  it("pinned with a TTL already past is DURABLE", () => {
    expect(status(originals.expiringAt(daysAfter(T0, 5), true))).toBe("DURABLE");
  });

  it("expiresAt exactly at the horizon is DURABLE; a millisecond earlier is EXPIRING", () => {
    const h = horizonFor(occurredAt, policy);
    expect(status(originals.expiringAt(h))).toBe("DURABLE");
    expect(status(originals.expiringAt(new Date(h.getTime() - 1)))).toBe("EXPIRING");
  });

  it("expiresAt exactly now is LOST (expired), a millisecond later EXPIRING", () => {
    expect(status(originals.expiringAt(now))).toBe("LOST");
    expect(status(originals.expiringAt(new Date(now.getTime() + 1)))).toBe("EXPIRING");
  });

  it("an original expiring before the horizon moves from EXPIRING to LOST as the clock passes its TTL", () => {
    const o = originals.expiringAt(daysAfter(T0, 30));
    expect(status(o, true, daysAfter(T0, 29))).toBe("EXPIRING");
    expect(status(o, true, daysAfter(T0, 31))).toBe("LOST");
  });
});

describe("isRetrievable", () => {
  it("needs present, intact, and unexpired or pinned", () => {
    expect(isRetrievable(null, now)).toBe(false);
    expect(isRetrievable(originals.deleted(), now)).toBe(false);
    expect(isRetrievable(originals.corrupt(true), now)).toBe(false);
    expect(isRetrievable(originals.forever(), now)).toBe(true);
    expect(isRetrievable(originals.expiringAt(now), now)).toBe(false);
    expect(isRetrievable(originals.expiringAt(daysAfter(now, 1)), now)).toBe(true);
    expect(isRetrievable(originals.expiringAt(daysAfter(now, -1), true), now)).toBe(true);
  });
});

describe("weakestStatus", () => {
  it("orders DURABLE < EXPIRING < LOST < NONE in weakness", () => {
    const order: ProvenanceStatus[] = ["DURABLE", "EXPIRING", "LOST", "NONE"];
    order.forEach((s, i) => expect(provenanceWeakness(s)).toBe(i));
    expect(weakestStatus(["DURABLE", "EXPIRING"])).toBe("EXPIRING");
    expect(weakestStatus(["LOST", "EXPIRING", "DURABLE"])).toBe("LOST");
    expect(weakestStatus(["LOST", "NONE"])).toBe("NONE");
    expect(weakestStatus(["DURABLE"])).toBe("DURABLE");
  });

  it("an empty list is NONE: nothing to point at", () => {
    expect(weakestStatus([])).toBe("NONE");
  });
});
