import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import type { Actor } from "@/lib/server/audit";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention";
import { extendOriginals, pinOriginals } from "./bulk-acts";

const operator: Actor = { type: "USER", id: "u1", label: "op@example.com" };

async function spansOf(count: number, ttlDays: number, occurredAt: Date) {
  const project = await makeTestProject("bulk", {
    ...DEFAULT_POLICY,
    ttlDays: { NARRATIVE: ttlDays, STRUCTURED: ttlDays, SIDE_EFFECTING: ttlDays },
  });
  const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
  const spans = await appendSpans(
    project.id,
    session.id,
    Array.from({ length: count }, (_, seq) => ({
      seq,
      kind: "MESSAGE" as const,
      occurredAt,
      body: new TextEncoder().encode(`note ${seq} about /srv/app/${seq}.log`),
    })),
  );
  return { project, session, keys: spans.map((s) => ({ sessionId: session.id, spanId: s.id })) };
}

describe("bulk pin and extend", () => {
  it("pins 1,000 originals with one statement and one audit row naming every span", async () => {
    const { project, session, keys } = await spansOf(1000, 30, new Date());
    const outcome = await pinOriginals(project.id, keys, operator, "litigation hold");
    expect(outcome.requested).toBe(1000);
    expect(outcome.changed).toHaveLength(1000);
    // Rows written by one statement carry the same transaction and command id.
    const [writes] = await db().$queryRaw<Array<{ pinned: number; statements: number }>>`
      select count(*)::int as pinned, count(distinct (xmin::text, cmin::text))::int as statements
        from span_original where session_id = ${session.id}::uuid and pinned`;
    expect(writes).toEqual({ pinned: 1000, statements: 1 });
    const audit = await db().auditLog.findMany({ where: { projectId: project.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ act: "originals.pin", actorLabel: "op@example.com", reason: "litigation hold" });
    const named = (audit[0]!.after as { spans: Array<{ spanId: string }> }).spans.map((s) => s.spanId).sort();
    expect(named).toEqual(keys.map((k) => k.spanId).sort());

    // Pinning again changes nothing and records nothing.
    expect((await pinOriginals(project.id, keys.slice(0, 10), operator, "again")).changed).toHaveLength(0);
    expect(await db().auditLog.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("refuses an empty selection and a missing reason in plain words", async () => {
    const { project, keys } = await spansOf(1, 30, new Date());
    await expect(pinOriginals(project.id, [], operator, "why")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Select at least one span",
    });
    await expect(pinOriginals(project.id, keys, operator, "  ")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fields: [{ path: "reason", message: "required" }],
    });
    await expect(extendOriginals(project.id, [], operator, new Date(Date.now() + DAY_MS), "why")).rejects.toMatchObject({
      message: "Select at least one span",
    });
  });

  it("a bulk pin racing the sweeper never loses a pinned original", async () => {
    const { project, session, keys } = await spansOf(200, 1, new Date(Date.now() - 10 * DAY_MS));
    const [outcome] = await Promise.all([pinOriginals(project.id, keys, operator, "race"), sweep()]);
    const pinned = new Set(outcome.changed.map((k) => k.spanId));
    const originals = await db().spanOriginal.findMany({ where: { sessionId: session.id } });
    expect(originals).toHaveLength(200);
    for (const original of originals) {
      if (original.bytes === null) {
        expect(original.pinned).toBe(false);
        expect(pinned.has(original.spanId)).toBe(false);
      } else {
        expect(original.pinned).toBe(true);
        expect(pinned.has(original.spanId)).toBe(true);
      }
    }
    // Whatever the pin left unpinned is swept next time; what it pinned never is.
    await sweep();
    const kept = await db().spanOriginal.count({ where: { sessionId: session.id, bytes: { not: null } } });
    expect(kept).toBe(pinned.size);
  });

  it("extends with one audit row holding each previous expiry, and never shortens", async () => {
    const { project, session, keys } = await spansOf(3, 30, new Date());
    const far = new Date(Date.now() + 900 * DAY_MS);
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: session.id, spanId: keys[2]!.spanId } },
      data: { expiresAt: far },
    });
    const until = new Date(Date.now() + 400 * DAY_MS);
    const outcome = await extendOriginals(project.id, keys, operator, until, "keep for the audit");
    expect(outcome.changed.map((k) => k.spanId).sort()).toEqual([keys[0]!.spanId, keys[1]!.spanId].sort());
    const third = await db().spanOriginal.findFirstOrThrow({ where: { spanId: keys[2]!.spanId } });
    expect(third.expiresAt?.getTime()).toBe(far.getTime());
    const audit = await db().auditLog.findMany({ where: { projectId: project.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.act).toBe("originals.extend");
    expect((audit[0]!.before as { spans: unknown[] }).spans).toHaveLength(2);
    await expect(extendOriginals(project.id, keys, operator, new Date(Date.now() - DAY_MS), "late")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });

  it("touches only originals of the project it acts in, whatever the selection names", async () => {
    const mine = await spansOf(2, 30, new Date());
    const theirs = await spansOf(2, 30, new Date());
    const outcome = await pinOriginals(mine.project.id, [...mine.keys, ...theirs.keys], operator, "hold");
    expect(outcome.changed.map((k) => k.spanId).sort()).toEqual(mine.keys.map((k) => k.spanId).sort());
    expect(await db().spanOriginal.count({ where: { sessionId: theirs.session.id, pinned: true } })).toBe(0);
    const extended = await extendOriginals(mine.project.id, theirs.keys, operator, new Date(Date.now() + 900 * DAY_MS), "x");
    expect(extended.changed).toHaveLength(0);
    expect(await db().auditLog.count({ where: { projectId: theirs.project.id } })).toBe(0);
  });
});
