import { beforeAll, describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/v1/sessions/route";
import { POST as appendSpans } from "@/app/api/v1/sessions/[id]/spans/route";
import { db } from "@/lib/db/client";
import { DAY_MS } from "@/lib/evidence/policy";
import { EVIDENTIAL_CLASSES, type EvidentialClass } from "@/lib/evidence/types";
import { callRoute } from "@/lib/fuzz/call";
import { createApiKey } from "@/lib/server/admin/api-keys";
import { makeTestProject, TEST_ACTOR } from "@/lib/server/admin/test-project";
import { currentPolicy } from "@/lib/server/retention";
import { simulateRetention } from "./simulate";

/**
 * The day series counted from grouped expiries must equal judging each held original alone: its
 * expiry moved by the TTL difference of its class, deleted at that time or now when it has passed,
 * on day floor((at - now) / 1 day) when before the horizon. Expiries sit on and around day
 * boundaries, in the past, pinned and far away.
 */
describe("the what-if's day series equal each original judged alone", () => {
  const now = new Date(Date.UTC(2026, 11, 3, 8, 0, 0, 123));
  let projectId: string;
  const held: Array<{
    sessionId: string;
    spanId: string;
    cls: EvidentialClass;
    bytes: number;
    expires: Date | null;
    occurred: Date;
  }> = [];

  beforeAll(async () => {
    projectId = (await makeTestProject("what-if-days")).id;
    const key = (await createApiKey(projectId, "runtime", "OPERATOR", TEST_ACTOR)).key;
    // Expiries from now in milliseconds: on day boundaries, a millisecond either side, past, far, pinned.
    const offsets = [-3, -0.5, 0, 1, 2.5, 6, 30, 89, 400]
      .flatMap((d) => [d * DAY_MS, d * DAY_MS - 1, d * DAY_MS + 1])
      .concat([null as unknown as number]) as Array<number | null>;
    for (const [s, cwd] of [
      ["one", "/srv/a"],
      ["two", "/srv/b"],
    ] as const) {
      const sessionId = (await callRoute(createSession, { key, body: { externalId: s, runtime: "claude-code", cwd } })).json.id;
      const spans = offsets.flatMap((_, i) => [
        {
          seq: 3 * i,
          kind: "MESSAGE",
          role: "assistant",
          occurredAt: new Date(now.getTime() - i * DAY_MS).toISOString(),
          body: `note ${i}`,
        },
        {
          seq: 3 * i + 1,
          kind: "TOOL_CALL",
          toolName: "Read",
          toolInput: { path: `/srv/${i}` },
          occurredAt: now.toISOString(),
          body: `read ${i}`,
        },
        {
          seq: 3 * i + 2,
          kind: "TOOL_CALL",
          toolName: "write_file",
          toolInput: { path: `/etc/app/${i}.conf` },
          occurredAt: new Date(now.getTime() - 2 * i * DAY_MS).toISOString(),
          body: JSON.stringify({ path: `/etc/app/${i}.conf`, content: "x".repeat(i) }),
        },
      ]);
      const appended = await callRoute(appendSpans, { key, params: { id: sessionId }, body: { spans } });
      expect(appended.status).toBe(200);
      for (const [j, span] of (appended.json.spans as Array<{ id: string; class: EvidentialClass }>).entries()) {
        const offset = offsets[Math.floor(j / 3)]!;
        const expires = offset === null ? null : new Date(now.getTime() + offset);
        await db().spanOriginal.update({
          where: { sessionId_spanId: { sessionId, spanId: span.id } },
          data: offset === null ? { pinned: true } : { expiresAt: expires },
        });
        const row = await db().span.findUniqueOrThrow({ where: { sessionId_id: { sessionId, id: span.id } } });
        held.push({ sessionId, spanId: span.id, cls: span.class, bytes: row.byteLength, expires, occurred: row.occurredAt });
      }
    }
    expect(new Set(held.map((h) => h.cls))).toEqual(new Set(EVIDENTIAL_CLASSES));
  });

  for (const [label, patch, horizonDays] of [
    ["the current policy over 90 days", {}, 90],
    [
      "shorter TTLs and horizon over 30 days",
      { evidenceHorizonDays: 10, ttlDays: { NARRATIVE: 1, STRUCTURED: 20, SIDE_EFFECTING: 2 } },
      30,
    ],
    ["longer TTLs over 3 days", { ttlDays: { NARRATIVE: 300, STRUCTURED: 365, SIDE_EFFECTING: 1000 } }, 3],
  ] as const) {
    it(label, async () => {
      const { policy: current } = await currentPolicy(projectId);
      const sim = await simulateRetention(projectId, patch, horizonDays, now);
      for (const which of ["current", "proposed"] as const) {
        const policy = sim[which].policy;
        const deleted = Array.from({ length: horizonDays }, () => ({ NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 }));
        const expiring = { NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 };
        const deletions: Array<{ spanId: string; at: string }> = [];
        for (const h of held) {
          if (h.expires === null) continue;
          const moved = h.expires.getTime() + (policy.ttlDays[h.cls] - current.ttlDays[h.cls]) * DAY_MS;
          if (moved < h.occurred.getTime() + policy.evidenceHorizonDays * DAY_MS) expiring[h.cls]++;
          const at = Math.max(moved, now.getTime());
          const day = Math.floor((at - now.getTime()) / DAY_MS);
          if (day < horizonDays) {
            deleted[day]![h.cls]++;
            deletions.push({ spanId: h.spanId, at: new Date(at).toISOString() });
          }
        }
        expect(sim[which].days.map((d) => d.deletedByClass)).toEqual(deleted);
        expect(sim[which].expiring).toEqual(expiring);
        expect(sim[which].deletions.map((d) => d.spanId).sort()).toEqual(deletions.map((d) => d.spanId).sort());
        for (const d of sim[which].deletions) expect(d.at).toBe(deletions.find((e) => e.spanId === d.spanId)!.at);
        const bytesHeld = held.reduce((n, h) => n + h.bytes, 0);
        const freed = held
          .filter((h) => sim[which].deletions.some((d) => d.spanId === h.spanId))
          .reduce((n, h) => n + h.bytes, 0);
        expect(sim[which].days.at(-1)!.bytesStored).toBe(bytesHeld - freed);
      }
    });

    it(`${label}: bytes freed by class, spans turning and staying EXPIRING, and their sessions, per day`, async () => {
      const { policy: current } = await currentPolicy(projectId);
      const sim = await simulateRetention(projectId, patch, horizonDays, now);
      const isExpiring = (h: (typeof held)[number], policy: typeof current) =>
        h.expires !== null &&
        h.expires.getTime() + (policy.ttlDays[h.cls] - current.ttlDays[h.cls]) * DAY_MS <
          h.occurred.getTime() + policy.evidenceHorizonDays * DAY_MS;
      for (const which of ["current", "proposed"] as const) {
        const policy = sim[which].policy;
        const zero = () => ({ NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 });
        const freed = Array.from({ length: horizonDays }, zero);
        const expiringHeld = Array.from({ length: horizonDays }, zero);
        const turned = zero();
        const sessions = new Map<string, { turnedExpiring: number; lost: number }>();
        const add = (h: (typeof held)[number], day: number, what: "turnedExpiring" | "lost") => {
          const key = `${new Date(now.getTime() + day * DAY_MS).toISOString().slice(0, 10)}/${h.sessionId}/${h.cls}`;
          const entry = sessions.get(key) ?? { turnedExpiring: 0, lost: 0 };
          entry[what]++;
          sessions.set(key, entry);
        };
        for (const h of held) {
          if (h.expires === null) continue;
          const moved = h.expires.getTime() + (policy.ttlDays[h.cls] - current.ttlDays[h.cls]) * DAY_MS;
          const day = Math.floor((Math.max(moved, now.getTime()) - now.getTime()) / DAY_MS);
          if (day < horizonDays) {
            freed[day]![h.cls] += h.bytes;
            add(h, day, "lost");
          }
          if (isExpiring(h, policy)) for (let d = 0; d < Math.min(day, horizonDays); d++) expiringHeld[d]![h.cls]++;
          if (which === "proposed" && isExpiring(h, policy) && !isExpiring(h, current)) {
            turned[h.cls]++;
            add(h, 0, "turnedExpiring");
          }
        }
        const days = sim[which].days;
        expect(days.map((d) => d.freedByClass)).toEqual(freed);
        expect(days.map((d) => d.bytesFreed)).toEqual(freed.map((f) => f.NARRATIVE + f.STRUCTURED + f.SIDE_EFFECTING));
        expect(days.map((d) => d.expiringHeld)).toEqual(expiringHeld);
        expect(days[0]!.turnedExpiring).toEqual(turned);
        expect(
          days
            .slice(1)
            .every((d) => d.turnedExpiring.NARRATIVE + d.turnedExpiring.STRUCTURED + d.turnedExpiring.SIDE_EFFECTING === 0),
        ).toBe(true);
        const listed = sim[which].sessions;
        expect(sim[which].sessionsTruncated).toBe(false);
        expect(
          new Map(listed.map((s) => [`${s.date}/${s.sessionId}/${s.class}`, { turnedExpiring: s.turnedExpiring, lost: s.lost }])),
        ).toEqual(sessions);
        expect(listed.map((s) => s.date)).toEqual(listed.map((s) => s.date).sort());
      }
    });
  }

  it("the sessions list is bounded, soonest first, and says when it was cut", async () => {
    const patch = { ttlDays: { NARRATIVE: 1, STRUCTURED: 20, SIDE_EFFECTING: 2 } };
    const whole = await simulateRetention(projectId, patch, 30, now);
    expect(whole.proposed.sessions.length).toBeGreaterThan(3);
    const cut = await simulateRetention(projectId, patch, 30, now, 3);
    expect(cut.proposed.sessions).toEqual(whole.proposed.sessions.slice(0, 3));
    expect([cut.proposed.sessionsTruncated, whole.proposed.sessionsTruncated]).toEqual([true, false]);
  });
});
