import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { Prisma } from "@/lib/db/generated/client";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { SWEEPER, writeAudits } from "@/lib/server/audit";
import { refusalRowsOf } from "@/lib/server/dashboard/refusals.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { sweep } from "@/lib/server/retention";
import { aheadWindow, atRiskAheadSql } from "./at-risk-ahead";
import { projectOverview } from "./overview";
import { compactionsSql, evidenceLostSql, expiriesSql, refusalsSql } from "./queries";
import { HOUR_MS, overviewWindow } from "./range";

const MIN_MS = 60_000;
// Half past noon today (UTC): every bucket below is placed by hand from this instant.
const TODAY = Date.now() - (Date.now() % DAY_MS);
const NOW = new Date(TODAY + 12 * HOUR_MS + 30 * MIN_MS);
const at = (ms: number) => new Date(NOW.getTime() + ms);
const hour = (h: number) => new Date(TODAY + h * HOUR_MS).toISOString();
const day = (d: number) => new Date(TODAY + d * DAY_MS).toISOString();
const encode = (text: string) => new TextEncoder().encode(text);

const write = (seq: number) => ({
  seq,
  kind: "TOOL_CALL" as const,
  toolName: "write_file",
  toolInput: { path: `/etc/app/${seq}.yaml` },
  occurredAt: at(-5 * DAY_MS),
  body: encode(JSON.stringify({ path: `/etc/app/${seq}.yaml`, content: "x".repeat(seq * 10) })),
});
const chat = (seq: number, text: string) => ({ seq, kind: "MESSAGE" as const, occurredAt: at(-5 * DAY_MS), body: encode(text) });
const note = (seq: number) => chat(seq, `Read the log at /srv/app/${seq}.log and found build ${seq}00 passed`);

async function seedSession(projectId: string, externalId: string, spans: Parameters<typeof appendSpans>[2]) {
  const { session } = await upsertSession(projectId, { externalId, runtime: "test" });
  const ingested = await appendSpans(projectId, session.id, spans, { now: at(-5 * DAY_MS) });
  const setOriginal = (i: number, data: { expiresAt?: Date | null; pinned?: boolean; bytes?: null }) =>
    db().spanOriginal.update({ where: { sessionId_spanId: { sessionId: session.id, spanId: ingested[i]!.id } }, data });
  // Bytes as sent: what the storage and expiry figures must add up.
  const bytes = (i: number) => spans[i]!.body.byteLength;
  return { session, spans: ingested, setOriginal, bytes };
}

const refusal = (sessionId: string, projectId: string, spanId: string, occurredAt: Date) =>
  refusalRowsOf({ projectId, sessionId, spanId }, [
    { occurredAt, reason: "seeded", requester: "test", cells: [["SIDE_EFFECTING", "EXPIRING"]] },
  ])[0]!;

const compaction = (sessionId: string, projectId: string, asked: boolean, replacedCount: number, occurredAt: Date) => ({
  sessionId,
  id: randomUUID(),
  projectId,
  asked,
  replacedCount,
  refusedCount: 0,
  requester: "test",
  occurredAt,
});

/**
 * Project A with two sessions and a neighbour project B whose rows sit in the same buckets (none of
 * them may count for A). Every expected figure below is worked out by hand from these rows.
 */
async function seed() {
  const a = await makeTestProject("overview-a");
  const b = await makeTestProject("overview-b");
  const s1 = await seedSession(a.id, "one", [
    ...[0, 1, 2, 3].map(write),
    chat(4, "Sounds good, carry on."),
    chat(5, "Thanks, that is all."),
    ...[6, 7, 8].map(note),
  ]);
  const s2 = await seedSession(a.id, "two", [write(0)]);
  const other = await seedSession(b.id, "other", [write(0)]);

  await s1.setOriginal(0, { expiresAt: at(HOUR_MS) }); // today
  await s1.setOriginal(1, { expiresAt: at(2 * DAY_MS) }); // today + 2
  await s1.setOriginal(2, { expiresAt: at(DAY_MS), pinned: true }); // pinned: not expiring
  await s1.setOriginal(3, { expiresAt: at(10 * DAY_MS) }); // after the week
  await s1.setOriginal(4, { expiresAt: at(2 * DAY_MS) }); // today + 2 (narrative)
  await s1.setOriginal(5, { expiresAt: at(-HOUR_MS) }); // already past, not swept yet
  await s1.setOriginal(6, { expiresAt: at(6 * DAY_MS + 11 * HOUR_MS) }); // today + 6, 23:30: the last day
  await s1.setOriginal(7, { expiresAt: at(6 * DAY_MS + 11 * HOUR_MS + 31 * MIN_MS) }); // today + 7, 00:01: out
  await s1.setOriginal(8, { expiresAt: at(DAY_MS), bytes: null }); // bytes gone: not held
  await s2.setOriginal(0, { expiresAt: at(3 * DAY_MS) }); // today + 3
  await other.setOriginal(0, { expiresAt: at(HOUR_MS) });

  const from24h = new Date(overviewWindow("24h", NOW).from);
  const span = s1.spans[4]!.id;
  await db().refusalEvent.createMany({
    data: [
      refusal(s1.session.id, a.id, span, at(-10 * MIN_MS)), // 12:20 today
      refusal(s1.session.id, a.id, span, at(-10 * MIN_MS)),
      refusal(s1.session.id, a.id, span, at(-5 * HOUR_MS)), // 07:30 today
      refusal(s1.session.id, a.id, span, from24h), // yesterday 13:00: the 24h window's first instant
      refusal(s1.session.id, a.id, span, new Date(from24h.getTime() - 1)), // just before it
      refusal(s1.session.id, a.id, span, at(-30 * HOUR_MS)), // yesterday 06:30
      refusal(s1.session.id, a.id, span, at(-8 * DAY_MS)), // today - 8
      refusal(s1.session.id, a.id, span, at(HOUR_MS)), // after now: not counted
      refusal(other.session.id, b.id, other.spans[0]!.id, at(-10 * MIN_MS)),
    ],
  });
  await db().compaction.createMany({
    data: [
      compaction(s1.session.id, a.id, false, 3, at(-HOUR_MS)), // 11:30 today
      compaction(s1.session.id, a.id, false, 5, at(-2 * DAY_MS)), // today - 2
      compaction(s2.session.id, a.id, true, 10, at(-HOUR_MS)),
      compaction(s2.session.id, a.id, false, 7, at(-40 * DAY_MS)),
      compaction(other.session.id, b.id, false, 4, at(-HOUR_MS)),
    ],
  });
  const sweepRow = (projectId: string, act: "original.sweep" | "original.hash_mismatch", when: Date) =>
    act === "original.sweep"
      ? {
          projectId,
          actor: SWEEPER,
          act,
          targetType: "span" as const,
          targetId: randomUUID(),
          before: { expiresAt: when, present: true as const },
          after: { present: false as const, movedToLost: [] },
          at: when,
        }
      : {
          projectId,
          actor: SWEEPER,
          act,
          targetType: "span" as const,
          targetId: randomUUID(),
          before: { verified: true as const },
          after: { verified: false as const, movedToLost: [] },
          at: when,
        };
  await writeAudits(db(), [
    sweepRow(a.id, "original.sweep", at(-3 * HOUR_MS)), // 09:30 today
    sweepRow(a.id, "original.sweep", at(-3 * HOUR_MS)),
    sweepRow(a.id, "original.hash_mismatch", at(-3 * HOUR_MS)),
    sweepRow(a.id, "original.sweep", at(-3 * DAY_MS)), // today - 3
    {
      projectId: a.id,
      actor: SWEEPER,
      act: "original.pin",
      targetType: "span",
      targetId: randomUUID(),
      before: { pinned: false },
      after: { pinned: true },
      at: at(-HOUR_MS),
    },
    sweepRow(b.id, "original.sweep", at(-3 * HOUR_MS)),
  ]);
  return { a, s1, s2 };
}

describe("the project overview, counted in SQL", () => {
  it("counts every figure of a seeded project over 24 hours and 7 and 30 days, and nothing of its neighbour", async () => {
    const { a, s1, s2 } = await seed();
    const classes = await db().span.findMany({
      where: { sessionId: s1.session.id },
      orderBy: { seq: "asc" },
      select: { class: true },
    });
    const S = "SIDE_EFFECTING" as const;
    expect(classes.map((c) => c.class)).toEqual([S, S, S, S, "NARRATIVE", "NARRATIVE", "STRUCTURED", "STRUCTURED", "STRUCTURED"]);
    const len = s1.bytes;

    const d7 = await projectOverview(a.id, { range: "7d", now: NOW });
    expect(d7.window).toEqual({ range: "7d", bucket: "day", from: day(-6), buckets: 7, asOf: NOW.toISOString() });
    expect(d7.refusals).toEqual({
      series: [
        { at: day(-1), count: 3 },
        { at: day(0), count: 3 },
      ],
      total: 6,
    });
    expect(d7.unaskedCompactions).toEqual({
      series: [
        { at: day(-2), count: 1, spansReplaced: 5 },
        { at: day(0), count: 1, spansReplaced: 3 },
      ],
      total: 2,
      spansReplaced: 8,
      askedTotal: 1,
    });
    expect(d7.evidenceLost).toEqual({
      series: [
        { at: day(-3), deleted: 1, damaged: 0 },
        { at: day(0), deleted: 2, damaged: 1 },
      ],
      deleted: 3,
      damaged: 1,
    });
    // Held, unpinned originals of evidence-bearing spans expiring before their 400-day horizon:
    // session one's 0, 1, 3, 6 and 7 (2 is pinned, 8 has no bytes, 4 and 5 are narrative), and
    // session two's 0.
    expect(d7.atRisk).toEqual({ spans: 6, sessions: 2 });

    const s2len = s2.bytes(0);
    expect(d7.expiringThisWeek).toEqual({
      window: { bucket: "day", from: day(0), buckets: 7 },
      series: [
        { at: day(0), originals: 1, bytes: len(0) },
        { at: day(2), originals: 2, bytes: len(1) + len(4) },
        { at: day(3), originals: 1, bytes: s2len },
        { at: day(6), originals: 1, bytes: len(6) },
      ],
      byClass: {
        NARRATIVE: { originals: 1, bytes: len(4) },
        STRUCTURED: { originals: 1, bytes: len(6) },
        SIDE_EFFECTING: { originals: 3, bytes: len(0) + len(1) + s2len },
      },
      total: { originals: 5, bytes: len(0) + len(1) + len(4) + len(6) + s2len },
    });
    // Bytes held: everything but session one's 8.
    const held = (indexes: number[]) => indexes.reduce((sum, i) => sum + len(i), 0);
    expect(d7.storage).toEqual({
      byClass: {
        NARRATIVE: { originals: 2, bytes: held([4, 5]) },
        STRUCTURED: { originals: 2, bytes: held([6, 7]) },
        SIDE_EFFECTING: { originals: 5, bytes: held([0, 1, 2, 3]) + s2len },
      },
      total: { originals: 9, bytes: held([0, 1, 2, 3, 4, 5, 6, 7]) + s2len },
    });

    const h24 = await projectOverview(a.id, { range: "24h", now: NOW });
    expect(h24.window).toMatchObject({ bucket: "hour", from: hour(-11), buckets: 24 });
    expect(h24.refusals).toEqual({
      series: [
        { at: hour(-11), count: 1 },
        { at: hour(7), count: 1 },
        { at: hour(12), count: 2 },
      ],
      total: 4,
    });
    expect(h24.unaskedCompactions).toEqual({
      series: [{ at: hour(11), count: 1, spansReplaced: 3 }],
      total: 1,
      spansReplaced: 3,
      askedTotal: 1,
    });
    expect(h24.evidenceLost).toEqual({ series: [{ at: hour(9), deleted: 2, damaged: 1 }], deleted: 2, damaged: 1 });

    const d30 = await projectOverview(a.id, { range: "30d", now: NOW });
    expect(d30.refusals.series[0]).toEqual({ at: day(-8), count: 1 });
    expect(d30.refusals.total).toBe(7);
    expect(d30.unaskedCompactions.total).toBe(2);
    const d90 = await projectOverview(a.id, { range: "90d", now: NOW });
    expect(d90.unaskedCompactions).toMatchObject({ total: 3, spansReplaced: 15 });
  });

  it("counts over the days the URL names, from the first day's start to the last day's end, and nothing after", async () => {
    const { a } = await seed();
    const days = { from: day(-2).slice(0, 10), to: day(-1).slice(0, 10) };
    const o = await projectOverview(a.id, { range: "7d", days, now: NOW });
    expect(o.window).toMatchObject({ days, bucket: "day", from: day(-2), buckets: 2, until: new Date(TODAY - 1).toISOString() });
    // Yesterday's three refusals (06:30, 12:59:59.999 and 13:00); today's are after the last day.
    expect(o.refusals).toEqual({ series: [{ at: day(-1), count: 3 }], total: 3 });
    expect(o.unaskedCompactions).toEqual({
      series: [{ at: day(-2), count: 1, spansReplaced: 5 }],
      total: 1,
      spansReplaced: 5,
      askedTotal: 0,
    });
    expect(o.evidenceLost).toEqual({ series: [], deleted: 0, damaged: 0 });
  });

  it("projects today's spans at risk ahead: per bucket, those whose held original then expires; one already past is lost, not held", async () => {
    const { a, s1, s2 } = await seed();
    // Session one's 3 (side-effecting) is past its expiry and not swept yet: it goes at the next sweep.
    await s1.setOriginal(3, { expiresAt: at(-2 * HOUR_MS) });
    // At risk and held: session one's 0 (today 13:30), 1 (today + 2), 3 (overdue), 6 (today + 6,
    // 23:30), 7 (today + 7, 00:01) and session two's 0 (today + 3); 2 is pinned, 8 has no bytes,
    // 4 and 5 are narrative. Project B's span expires today and must not count.
    const d7 = await projectOverview(a.id, { range: "7d", now: NOW });
    // At risk now is what the sessions list and the grid show amber: the overdue 3 shows as lost.
    expect(d7.atRisk.spans).toBe(5);
    expect(d7.lostNow).toEqual({ spans: 2, sessions: 1 });
    // The overdue 3 is lost now (the sweeper deletes it next), as the list and the grid show it.
    expect(d7.atRiskAhead).toEqual({
      window: { bucket: "day", from: day(0), buckets: 7 },
      held: 5,
      series: [
        { at: day(0), expiring: 1 },
        { at: day(2), expiring: 1 },
        { at: day(3), expiring: 1 },
        { at: day(6), expiring: 1 },
      ],
      firstExpiry: hour(13),
    });
    // The range picks whose spans: no session was active in the last 24 hours (both last wrote five
    // days ago), so there is nothing to project; once session one is, its spans are projected by the hour.
    const quiet = await projectOverview(a.id, { range: "24h", now: NOW });
    expect(quiet.atRiskAhead).toEqual({
      window: { bucket: "hour", from: hour(12), buckets: 24 },
      held: 0,
      series: [],
      firstExpiry: null,
    });
    await db().session.update({ where: { id: s1.session.id }, data: { lastActivityAt: at(-HOUR_MS) } });
    const h24 = await projectOverview(a.id, { range: "24h", now: NOW });
    expect(h24.atRiskAhead).toEqual({
      window: { bucket: "hour", from: hour(12), buckets: 24 },
      held: 4,
      series: [{ at: hour(13), expiring: 1 }],
      firstExpiry: hour(13),
    });
    // A pin takes a span out of the projection; so does a horizon its expiry no longer falls before.
    await s2.setOriginal(0, { pinned: true });
    const pinned = await projectOverview(a.id, { range: "7d", now: NOW });
    expect(pinned.atRiskAhead.held).toBe(4);
    expect(pinned.atRiskAhead.series.find((p) => p.at === day(3))).toBeUndefined();
    // The spans occurred five days before now: a five-day horizon leaves only expiries before now,
    // i.e. the overdue one (3); today's (0), an hour after now, is no longer at risk.
    // (Only the horizon is read here: the originals' expiries stay as set above.)
    const { ttlDays } = DEFAULT_POLICY;
    await db().retentionPolicy.create({
      data: {
        projectId: a.id,
        evidenceHorizonDays: 5,
        ttlNarrativeDays: ttlDays.NARRATIVE,
        ttlStructuredDays: ttlDays.STRUCTURED,
        ttlSideEffectingDays: ttlDays.SIDE_EFFECTING,
        systemConfigPrefixes: [...DEFAULT_POLICY.systemConfigPrefixes],
      },
    });
    const short = await projectOverview(a.id, { range: "7d", now: NOW });
    // Now, that one shows as lost, not at risk (as in the list and the grid), and the projection agrees.
    expect(short.atRisk.spans).toBe(0);
    expect(short.atRiskAhead).toMatchObject({ held: 0, series: [], firstExpiry: null });
  });

  it("an empty project has empty series and zero totals", async () => {
    const empty = await makeTestProject("overview-empty");
    const o = await projectOverview(empty.id, { range: "7d", now: NOW });
    expect(o.refusals).toEqual({ series: [], total: 0 });
    expect(o.unaskedCompactions).toEqual({ series: [], total: 0, spansReplaced: 0, askedTotal: 0 });
    expect(o.evidenceLost).toEqual({ series: [], deleted: 0, damaged: 0 });
    expect(o.atRisk).toEqual({ spans: 0, sessions: 0 });
    expect(o.expiringThisWeek.total).toEqual({ originals: 0, bytes: 0 });
    expect(o.storage.total).toEqual({ originals: 0, bytes: 0 });
  });

  it("evidence lost counts what the sweeper deleted, as span_original.deleted_at records it", async () => {
    const project = await makeTestProject("overview-sweep", {
      ...DEFAULT_POLICY,
      ttlDays: { NARRATIVE: 1, STRUCTURED: 1, SIDE_EFFECTING: 1 },
    });
    const { session } = await upsertSession(project.id, { externalId: "s", runtime: "test" });
    const old = new Date(Date.now() - 10 * DAY_MS);
    await appendSpans(
      project.id,
      session.id,
      [write(0), write(1), write(2)].map((s) => ({ ...s, occurredAt: old })),
      { now: old },
    );
    const sweptAt = new Date();
    await sweep(sweptAt);
    const deleted = await db().spanOriginal.count({ where: { sessionId: session.id, deletedAt: { not: null } } });
    expect(deleted).toBe(3);
    const o = await projectOverview(project.id, { range: "24h", now: new Date(sweptAt.getTime() + MIN_MS) });
    expect(o.evidenceLost.deleted).toBe(deleted);
    expect(o.storage.total.originals).toBe(0);
  });

  it("each range query is an index range scan on the project (or, for expiries, on the expiry time or the project's sessions)", async () => {
    const { a } = await seed();
    const scope = { projectId: a.id, window: overviewWindow("7d", NOW) };
    // [statement, then the tables and index conditions' first columns that may lead the plan]
    const plans: Array<[Prisma.Sql, Array<[string, string]>]> = [
      [refusalsSql(scope), [["refusal_event", "project_id"]]],
      [compactionsSql(scope, false), [["compaction", "project_id"]]],
      [evidenceLostSql(scope), [["audit_log", "project_id"]]],
      [atRiskAheadSql(a.id, aheadWindow(scope.window), { since: at(-7 * DAY_MS) }, NOW), [["session", "project_id"]]],
      // Few expiring originals: a range on the expiry time; a small project: its sessions first,
      // then each session's held spans by index. Either way no scan of every original.
      [
        expiriesSql(a.id, NOW, at(7 * DAY_MS)),
        [
          ["span_original", "expires_at"],
          ["session", "project_id"],
        ],
      ],
    ];
    for (const [sql, leads] of plans) {
      // The seeded tables are tiny, where a sequential scan is cheapest: forbid it to see how the
      // planner reaches the rows when the table is large. (Which of two indexes led by the project
      // it picks depends on statistics a test database does not have.)
      const plan = await db().$transaction(async (tx) => {
        await tx.$executeRawUnsafe("set local enable_seqscan = off");
        await tx.$executeRawUnsafe("set local enable_bitmapscan = off");
        const explain = await tx.$queryRaw<Array<{ "QUERY PLAN": string }>>(Prisma.sql`explain ${sql}`);
        return explain.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan, plan).not.toMatch(/Seq Scan/);
      const led = leads.some(([table, leading]) =>
        new RegExp(`Scan using \\S+ on ${table}\\b.*\\n\\s+Index Cond: \\(\\(?(\\w+\\.)?${leading} `).test(plan),
      );
      expect(led, plan).toBe(true);
    }
  });
});
