import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { Actor } from "@/lib/server/audit/write";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { pinOriginal, setOriginalExpiry, unpinOriginal } from "@/lib/server/provenance/operator-acts";
import { sweep } from "./sweeper";
import { makeTestProject } from "@/lib/server/admin/test-project";

const operator: Actor = { type: "USER", id: "u1", label: "op@example.com" };

/** A project whose originals are all already past their TTL when ingested. */
async function expiredSpans(count: number) {
  const project = await makeTestProject("retention", {
    ...DEFAULT_POLICY,
    ttlDays: { NARRATIVE: 1, STRUCTURED: 1, SIDE_EFFECTING: 1 },
  });
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const old = new Date(Date.now() - 10 * DAY_MS);
  const spans = await appendSpans(
    project.id,
    session.id,
    Array.from({ length: count }, (_, seq) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt: old,
      body: new TextEncoder().encode(`note ${seq} about /srv/app/${seq}.log`),
    })),
    // Received when they occurred, as a runtime streaming live would have sent them.
    { now: old },
  );
  return { project, session, spans };
}

describe("retention acts and the sweeper", () => {
  it("sweeps expired unpinned originals, keeps pinned ones, and audits what moved to LOST", async () => {
    const { project, session, spans } = await expiredSpans(2);
    await pinOriginal({ projectId: project.id, spanId: spans[0]!.id }, operator, "legal hold");
    const result = await sweep();
    expect(result.lostSpanIds).toContain(spans[1]!.id);
    expect(result.lostSpanIds).not.toContain(spans[0]!.id);
    const originals = await db().spanOriginal.findMany({ where: { sessionId: session.id }, orderBy: { spanId: "asc" } });
    const byId = new Map(originals.map((o) => [o.spanId, o]));
    expect(byId.get(spans[0]!.id)!.bytes).not.toBeNull();
    expect(byId.get(spans[1]!.id)!.bytes).toBeNull();
    const audit = await db().auditLog.findMany({ where: { projectId: project.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.act)).toEqual(["original.pin", "original.sweep"]);
    expect(audit[1]!.after).toMatchObject({ present: false, movedToLost: [spans[1]!.id] });
  });

  it("a pin racing the sweeper either wins or fails with GONE; never a swept pinned original", async () => {
    const { project, session, spans } = await expiredSpans(20);
    const pins = spans.map((s) =>
      pinOriginal({ projectId: project.id, spanId: s.id }, operator, "race").then(
        () => "pinned",
        (e) => e.code,
      ),
    );
    const [outcomes] = await Promise.all([Promise.all(pins), sweep()]);
    const originals = await db().spanOriginal.findMany({ where: { sessionId: session.id } });
    for (const original of originals) {
      const outcome = outcomes[spans.findIndex((s) => s.id === original.spanId)];
      if (original.bytes === null) {
        expect(original.pinned).toBe(false);
        expect(outcome).toBe("GONE");
      } else {
        expect(original.pinned).toBe(true);
        expect(outcome).toBe("pinned");
      }
    }
  });

  it("extending needs no reason; shortening and unpinning do, and are audited with before and after", async () => {
    const { project, spans } = await expiredSpans(1);
    const ref = { projectId: project.id, spanId: spans[0]!.id };
    const later = new Date(Date.now() + 30 * DAY_MS);
    await expect(setOriginalExpiry(ref, operator, later)).resolves.toEqual({ shortened: false });
    await expect(setOriginalExpiry(ref, operator, new Date(Date.now() + DAY_MS))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(setOriginalExpiry(ref, operator, new Date(Date.now() + DAY_MS), "contains a secret")).resolves.toEqual({
      shortened: true,
    });
    await expect(setOriginalExpiry(ref, operator, new Date(Date.now() - DAY_MS), "past")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await pinOriginal(ref, operator);
    await expect(unpinOriginal(ref, operator, "  ")).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await unpinOriginal(ref, operator, "hold lifted by counsel");
    const audit = await db().auditLog.findMany({
      where: { projectId: project.id, targetId: ref.spanId },
      orderBy: { at: "asc" },
    });
    expect(audit.map((a) => a.act)).toEqual(["original.extend", "original.shorten", "original.pin", "original.unpin"]);
    expect(audit[1]!.reason).toBe("contains a secret");
  });

  it("the audit log refuses updates and deletes", async () => {
    const { project, spans } = await expiredSpans(1);
    await pinOriginal({ projectId: project.id, spanId: spans[0]!.id }, operator);
    // The application's role has no right to (lib/server/audit/chain.db.test.ts); the owner meets the trigger.
    await expect(db().auditLog.updateMany({ where: { projectId: project.id }, data: { reason: "rewritten" } })).rejects.toThrow(
      /append-only|permission denied/,
    );
    await expect(db().auditLog.deleteMany({ where: { projectId: project.id } })).rejects.toThrow(/append-only|permission denied/);
  });
});
