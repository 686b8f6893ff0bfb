import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { appendSpans, upsertSession } from "@/lib/server/ingest/append";
import { reclaim } from "@/lib/server/gate/reclaim";
import { listSessionPage } from "./session-list";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { db } from "@/lib/db/client";
import { DEFAULT_POLICY } from "@/lib/evidence/policy";
import { gridTally } from "@/lib/evidence/safety";
import { getSessionOverview } from "./session-detail";

describe("the sessions list", () => {
  it("searches, filters by runtime and state, sorts by refusals and pages", async () => {
    const project = await makeTestProject("list");
    const tag = randomBytes(4).toString("hex");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { session } = await upsertSession(project.id, {
        externalId: `list-${tag}-${i}`,
        runtime: i === 2 ? `rt-${tag}` : "claude-code",
        title: `List ${tag} ${i}`,
      });
      await appendSpans(project.id, session.id, [
        {
          seq: 0,
          kind: "TOOL_CALL",
          toolName: "write_file",
          occurredAt: new Date(),
          body: new TextEncoder().encode('{"path":"/etc/x.conf"}'),
        },
      ]);
      ids.push(session.id);
    }
    // Refuse a pointerless summary in session 1: it gets a refusal.
    await reclaim({
      projectId: project.id,
      sessionId: ids[1]!,
      selection: { fromSeq: 0, toSeq: 0 },
      summary: { text: "wrote config", pointers: [] },
      dryRun: false,
      requester: "test",
    });

    const searched = await listSessionPage(project.id, { q: tag });
    expect(searched.total).toBe(3);
    expect((await listSessionPage(project.id, { q: tag, runtime: `rt-${tag}` })).rows.map((r) => r.id)).toEqual([ids[2]]);
    const refused = await listSessionPage(project.id, { q: tag, state: "refused" });
    expect(refused.rows.map((r) => r.id)).toEqual([ids[1]]);
    expect(refused.rows[0]!.refusalCount).toBe(1);
    expect((await listSessionPage(project.id, { q: tag, sort: "refusals" })).rows[0]!.id).toBe(ids[1]);
    expect((await listSessionPage(project.id, { q: `${tag} 1%` })).total).toBe(0); // % is literal, not a wildcard
    expect((await listSessionPage(project.id, { q: tag, page: "2" })).rows).toEqual([]);
    await expect(listSessionPage(project.id, { sort: "nonsense" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("keeps to the view's time range by last activity: a preset or whole days", async () => {
    const project = await makeTestProject("list-range");
    const [recent, older] = await Promise.all(
      ["recent", "older"].map(
        async (label) => (await upsertSession(project.id, { externalId: label, runtime: "codex" })).session.id,
      ),
    );
    const twentyDaysAgo = new Date(Date.now() - 20 * 86_400_000);
    await db().session.update({ where: { id: older! }, data: { lastActivityAt: twentyDaysAgo } });
    const ids = async (raw: Record<string, string>) => (await listSessionPage(project.id, raw)).rows.map((r) => r.id);
    expect(await ids({})).toEqual([recent, older]);
    expect(await ids({ range: "7d" })).toEqual([recent]);
    expect(await ids({ range: "30d" })).toEqual([recent, older]);
    const day = twentyDaysAgo.toISOString().slice(0, 10);
    expect(await ids({ from: day, to: day })).toEqual([older]);
    expect(await ids({ range: "7d", from: day, to: day })).toEqual([older]);
    expect((await listSessionPage(project.id, { range: "7d" })).query.range).toBe("7d");
    await expect(listSessionPage(project.id, { range: "1y" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("marks the sessions whose import skipped records, and lists only them when asked", async () => {
    const project = await makeTestProject("incomplete");
    const tag = randomBytes(4).toString("hex");
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { session } = await upsertSession(project.id, {
        externalId: `inc-${tag}-${i}`,
        runtime: "claude-code",
        title: `Inc ${tag} ${i}`,
      });
      ids.push(session.id);
    }
    await db().skippedRecord.createMany({
      data: [
        { sessionId: ids[1]!, line: 3, reason: "not valid JSON" },
        { sessionId: ids[1]!, line: 9, reason: "result without its call" },
      ],
    });
    const all = await listSessionPage(project.id, { q: tag });
    expect(Object.fromEntries(all.rows.map((r) => [r.id, r.skippedCount]))).toEqual({ [ids[0]!]: 0, [ids[1]!]: 2 });
    const incomplete = await listSessionPage(project.id, { q: tag, state: "incomplete" });
    expect(incomplete.rows.map((r) => r.id)).toEqual([ids[1]]);
    expect(incomplete.total).toBe(1);
  });

  it("refuses a NUL or a lone surrogate in a filter as a bad filter naming it, not a database error", async () => {
    const project = await makeTestProject("list-nul");
    for (const raw of [{ q: "a\u0000b" }, { runtime: "\u0000" }, { q: "\ud800" }]) {
      const refused = listSessionPage(project.id, raw);
      await expect(refused).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
      await expect(refused).rejects.toMatchObject({ options: { fields: [{ path: Object.keys(raw)[0] }] } });
    }
  });

  it("counts at risk and lost as the session's grid colours them, no-pointer cells included", async () => {
    // Structured originals kept 30 days against a 400-day horizon: at risk. A runtime that compacted
    // without asking left the first spans with no pointer: the grid shows those red.
    const project = await makeTestProject("list-grid", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 30 },
    });
    const { session } = await upsertSession(project.id, {
      externalId: `grid-${randomBytes(3).toString("hex")}`,
      runtime: "claude-code",
    });
    const body = (s: string) => new TextEncoder().encode(s);
    await appendSpans(project.id, session.id, [
      { seq: 0, kind: "TOOL_CALL", toolName: "write_file", occurredAt: new Date(), body: body('{"path":"/etc/a.conf"}') },
      { seq: 1, kind: "TOOL_RESULT", occurredAt: new Date(), body: body("Wrote 12 bytes to /etc/a.conf") },
      { seq: 2, kind: "MESSAGE", occurredAt: new Date(), body: body("Checked /var/log/app/2026-12-01.log at 09:14") },
      { seq: 3, kind: "TOOL_RESULT", occurredAt: new Date(), body: body("listed /srv/app/releases/42") },
      { seq: 4, kind: "MESSAGE", occurredAt: new Date(), body: body("Done.") },
    ]);
    await reclaim({
      projectId: project.id,
      sessionId: session.id,
      selection: { fromSeq: 0, toSeq: 1 },
      summary: { text: "Wrote a config.", pointers: [] },
      dryRun: false,
      requester: "runtime:test",
      observed: true,
    });
    const { grid } = await getSessionOverview(project.id, session.id);
    const shown = gridTally(grid);
    expect(shown.lost).toBeGreaterThan(0);
    expect(shown.atRisk).toBeGreaterThan(0);
    const [row] = (await listSessionPage(project.id, {})).rows;
    expect({ atRisk: row!.atRiskCount, lost: row!.lostCount }).toEqual(shown);
    // The lost filter finds the session by the same red count.
    expect((await listSessionPage(project.id, { state: "lost" })).rows.map((r) => r.id)).toEqual([session.id]);
  });

  it("filters and sorts at risk by the grid's amber count: an original past its TTL, not swept yet, is red, not at risk", async () => {
    // Structured originals kept one day against a 400-day horizon: at risk until the day ends, then lost.
    const project = await makeTestProject("list-amber", {
      ...DEFAULT_POLICY,
      ttlDays: { ...DEFAULT_POLICY.ttlDays, STRUCTURED: 1 },
    });
    const body = (s: string) => new TextEncoder().encode(s);
    // Each session's spans replaced by a summary that points at them (observed: the runtime did not
    // ask), so the grid reads their originals' TTLs.
    const session = async (label: string, spans: number) => {
      const { session } = await upsertSession(project.id, {
        externalId: `${label}-${randomBytes(3).toString("hex")}`,
        runtime: "codex",
      });
      const texts = Array.from({ length: spans }, (_, seq) => `Checked /var/log/app/2026-12-0${seq + 1}.log at 09:14`);
      const appended = await appendSpans(
        project.id,
        session.id,
        texts.map((text, seq) => ({
          seq,
          kind: "MESSAGE" as const,
          occurredAt: new Date(),
          body: body(text),
        })),
      );
      await reclaim({
        projectId: project.id,
        sessionId: session.id,
        selection: { fromSeq: 0, toSeq: spans - 1 },
        summary: {
          text: "Checked the logs.",
          pointers: appended.map((a, i) => ({
            spanId: a.id,
            byteStart: 0,
            byteEnd: Buffer.byteLength(texts[i]!),
            sha256: a.sha256,
          })),
        },
        dryRun: false,
        requester: "runtime:test",
        observed: true,
      });
      return session.id;
    };
    const expired = await session("expired", 3);
    const one = await session("one", 1);
    const two = await session("two", 2);
    // One session's TTLs end an hour ago, the sweeper not run since: held, and lost by the clock.
    await db().$executeRaw`update span set original_expires_at = now() - interval '1 hour' where session_id = ${expired}::uuid`;
    // The kept counter still counts the expired originals (held until swept): the grid does not.
    const kept = await db().session.findUniqueOrThrow({ where: { id: expired }, select: { atRiskCount: true } });
    expect(kept.atRiskCount).toBeGreaterThan(0);
    const tally = async (id: string) => gridTally((await getSessionOverview(project.id, id)).grid).atRisk;
    // Each summary is amber with the spans it replaced: the SQL counts spans, not summaries.
    expect([await tally(expired), await tally(one), await tally(two)]).toEqual([0, 2, 3]);

    const filtered = await listSessionPage(project.id, { state: "at-risk" });
    expect(filtered.rows.map((r) => r.id).sort()).toEqual([one, two].sort());
    expect(filtered.total).toBe(2);
    const sorted = await listSessionPage(project.id, { sort: "at-risk" });
    expect(sorted.rows.map((r) => r.id)).toEqual([two, one, expired]);
    // Shown as the grid tallies them, summaries included.
    for (const row of sorted.rows) expect(row.atRiskCount).toBe(await tally(row.id));
  });
});
