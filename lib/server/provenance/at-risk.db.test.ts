import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { atRiskWhateverTheClock, isAtRisk } from "@/lib/evidence/at-risk";
import { ttlPassed } from "@/lib/evidence/expiry";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { EvidentialClass } from "@/lib/evidence/types";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { listAtRiskOriginals, loadPolicy } from "@/lib/server/retention";
import { loadOriginalFacts } from "./original-facts";

/** A write of a system config file: a side-effecting span whose original the policy keeps for a TTL. */
const configWrite = (seq: number, occurredAt: Date) => {
  const toolInput = { path: `/etc/app/${seq}.yaml`, mode: "overwrite" };
  return {
    seq,
    kind: "TOOL_CALL" as const,
    toolName: "write_file",
    toolInput,
    occurredAt,
    body: new TextEncoder().encode(JSON.stringify(toolInput)),
  };
};

describe("at risk: the pure definition and the retention page's SQL agree", () => {
  it("lists exactly the originals isAtRisk names", async () => {
    const project = await makeTestProject("at-risk");
    const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
    const occurredAt = new Date(Date.now() - 5 * DAY_MS);
    const spans = await appendSpans(project.id, session.id, [
      ...Array.from({ length: 8 }, (_, seq) => configWrite(seq, occurredAt)),
      { seq: 8, kind: "MESSAGE", occurredAt, body: new TextEncoder().encode("Sounds good, carry on.") },
    ]);
    const horizon = occurredAt.getTime() + DEFAULT_POLICY.evidenceHorizonDays * DAY_MS;
    const soon = new Date(Date.now() + 30 * DAY_MS);
    const set = (i: number, data: { expiresAt?: Date | null; pinned?: boolean; bytes?: null }) =>
      db().spanOriginal.update({ where: { sessionId_spanId: { sessionId: session.id, spanId: spans[i]!.id } }, data });
    await set(0, { expiresAt: soon });
    await set(1, { expiresAt: soon, pinned: true });
    await set(2, { expiresAt: null });
    await set(3, { expiresAt: new Date(horizon) });
    await set(4, { expiresAt: new Date(horizon + DAY_MS) });
    await set(5, { expiresAt: new Date(Date.now() - DAY_MS) });
    await set(6, { expiresAt: soon, bytes: null });
    await set(7, { expiresAt: new Date(horizon - 60_000) });
    await set(8, { expiresAt: soon });

    const now = new Date();
    const policy = await loadPolicy(db(), project.id);
    const ids = spans.map((s) => s.id);
    const facts = await loadOriginalFacts(db(), session.id, ids);
    const rows = await db().span.findMany({
      where: { sessionId: session.id },
      select: { id: true, class: true, occurredAt: true, byteLength: true },
    });
    const expected = rows
      .filter((r) =>
        isAtRisk({ class: r.class as EvidentialClass, occurredAt: r.occurredAt, original: facts.get(r.id) ?? null }, policy, now),
      )
      .map((r) => r.id)
      .sort();
    const listedRows = (await listAtRiskOriginals(project.id, 100_000)).filter((o) => o.sessionId === session.id);
    const listed = listedRows.map((o) => o.spanId).sort();
    expect(listed).toEqual(expected);
    // Each row carries its original's size, which a bulk act's confirmation adds up.
    const sizeOf = new Map(rows.map((r) => [r.id, r.byteLength]));
    for (const o of listedRows) expect(o.bytes).toBe(sizeOf.get(o.spanId));
    expect(expected).toEqual([spans[0]!.id, spans[7]!.id].sort());
  });

  it("lists, at the boundary instants, what the rule names: expiring at now is gone, at the horizon is not at risk", async () => {
    const project = await makeTestProject("at-risk-edges");
    const { session } = await upsertSession(project.id, { externalId: "edges", runtime: "test" });
    const now = new Date(Date.now() - 1_234);
    const occurredAt = new Date(now.getTime() - 3 * DAY_MS - 567);
    const horizon = occurredAt.getTime() + DEFAULT_POLICY.evidenceHorizonDays * DAY_MS;
    const at = [now.getTime() - 1, now.getTime(), now.getTime() + 1, horizon - 1, horizon, horizon + 1];
    const spans = await appendSpans(
      project.id,
      session.id,
      at.map((_, seq) => configWrite(seq, occurredAt)),
    );
    for (const [i, ms] of at.entries())
      await db().spanOriginal.update({
        where: { sessionId_spanId: { sessionId: session.id, spanId: spans[i]!.id } },
        data: { expiresAt: new Date(ms) },
      });
    const policy = await loadPolicy(db(), project.id);
    const facts = await loadOriginalFacts(
      db(),
      session.id,
      spans.map((s) => s.id),
    );
    const expected = spans
      .filter((s) => {
        const f = { class: "SIDE_EFFECTING" as EvidentialClass, occurredAt, original: facts.get(s.id) ?? null };
        expect(isAtRisk(f, policy, now)).toBe(atRiskWhateverTheClock(f, policy) && !ttlPassed(f.original!, now));
        return isAtRisk(f, policy, now);
      })
      .map((s) => s.id);
    const listed = (await listAtRiskOriginals(project.id, 100_000, now)).map((o) => o.spanId);
    expect(listed).toEqual(expected);
    expect(listed).toEqual([spans[2]!.id, spans[3]!.id]);
  });
});
