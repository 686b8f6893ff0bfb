/**
 * Two servers on one database: each runs the background work a server runs (the maintenance round:
 * sweeper, held OTLP spans, question jobs' upkeep; the search indexer; the closing of jobs a stopped
 * server left), at the same time as the other and under ingest, over connections of their own.
 * Nothing of it is coordinated in process memory, so what each server's loop holds here is only its
 * own tallies: whatever one server did is seen by the other through the database alone.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { makeTestProject } from "@/lib/server/admin/test-project";
import { driftOf } from "@/lib/server/derived-state-recount.testkit";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { receiveOtlpTraces } from "@/lib/server/integrations";
import { chat, hex, request, tool } from "@/lib/server/integrations/otlp-test-spans";
import { indexAllPending } from "@/lib/server/search";
import { closeInterruptedJobs, runMaintenance } from "./index";

const EXPIRED_SESSIONS = 6;
const SPANS_PER_SESSION = 40;
const ROUNDS = 4;

const body = (session: number, seq: number) =>
  new TextEncoder().encode(`step ${seq} of run ${session}: wrote /srv/app/${seq}.log`);

const spansOf = (count: number, at: Date) =>
  Array.from({ length: count }, (_, seq) => ({ seq, kind: "MESSAGE" as const, occurredAt: at, body: body(count, seq) }));

interface Tally {
  swept: number;
  released: number;
  indexed: number;
}

/** One server's background work, ROUNDS times, as its schedule runs it (at the clock `now`). */
async function server(now: Date): Promise<Tally> {
  const tally: Tally = { swept: 0, released: 0, indexed: 0 };
  await closeInterruptedJobs(now);
  for (let round = 0; round < ROUNDS; round++) {
    const result = await runMaintenance(now);
    tally.swept += result.deleted;
    tally.released += result.otlpHeldSpansReleased;
    tally.indexed += await indexAllPending(25);
  }
  return tally;
}

describe("two servers on one database", () => {
  it("share the background work under ingest: nothing runs twice, nothing is lost", async () => {
    const project = await makeTestProject("two-servers", {
      ...DEFAULT_POLICY,
      ttlDays: { NARRATIVE: 1, STRUCTURED: 1, SIDE_EFFECTING: 1 },
    });
    const now = new Date();
    const old = new Date(now.getTime() - 10 * DAY_MS);
    // Originals past their TTL, in several sessions: the sweepers' work.
    const expired: string[] = [];
    for (let i = 0; i < EXPIRED_SESSIONS; i++) {
      const { session } = await upsertSession(project.id, { externalId: `expired-${i}`, runtime: "test" });
      await appendSpans(project.id, session.id, spansOf(SPANS_PER_SESSION, old), { now: old });
      expired.push(session.id);
    }
    // OTLP spans held for an ancestor that never came, their wait over: released by one round.
    const trace = hex(16);
    const conversation = `held-${hex(4)}`;
    const agent = hex(8);
    const heldAt = now;
    await receiveOtlpTraces(
      project.id,
      request(chat(trace, conversation, "Set the log level", heldAt, agent), tool(trace, agent, "/etc/app/conf.yaml", heldAt)),
      { requester: "test", now: heldAt },
    );
    // Jobs: one whose server stopped long ago, one another server is running now.
    const stale = new Date(now.getTime() - DAY_MS);
    const [abandonedImport, liveImport, abandonedQuestion, liveQuestion] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    await db().importJob.createMany({
      data: [
        { id: abandonedImport, projectId: project.id, byteLength: 1, requester: "test", updatedAt: stale },
        { id: liveImport, projectId: project.id, byteLength: 1, requester: "test", updatedAt: new Date(now.getTime() + 60_000) },
      ],
    });
    await db().questionJob.createMany({
      data: [
        { id: abandonedQuestion, projectId: project.id, requester: "test", updatedAt: stale },
        { id: liveQuestion, projectId: project.id, requester: "test", updatedAt: new Date(now.getTime() + 60_000) },
      ],
    });

    // Ingest goes on while both servers work: live sessions whose originals keep their TTL.
    const live: string[] = [];
    const ingest = (async () => {
      for (let i = 0; i < 6; i++) {
        const { session } = await upsertSession(project.id, { externalId: `live-${i}`, runtime: "test" });
        live.push(session.id);
        for (let b = 0; b < 2; b++) {
          const spans = spansOf(SPANS_PER_SESSION, now).map((s) => ({ ...s, seq: s.seq + b * SPANS_PER_SESSION }));
          await appendSpans(project.id, session.id, spans, { now });
        }
      }
    })();
    // The servers' clock: past the held spans' wait (counted from their receipt, the database's time).
    const clock = new Date(now.getTime() + 2 * 60_000);
    const [a, b] = await Promise.all([server(clock), server(clock), ingest]);
    // What ingest wrote after the servers' last round is indexed by the next one.
    const settled = await indexAllPending();

    // The sweepers: every expired original deleted, each by one of them, audited once.
    const expiredOriginals = EXPIRED_SESSIONS * SPANS_PER_SESSION;
    const left = await db().spanOriginal.count({ where: { sessionId: { in: expired }, bytes: { not: null } } });
    expect(left).toBe(0);
    const sweeps = await db().auditLog.findMany({
      where: { projectId: project.id, act: "original.sweep" },
      select: { targetId: true },
    });
    expect(sweeps).toHaveLength(expiredOriginals);
    expect(new Set(sweeps.map((s) => s.targetId)).size).toBe(expiredOriginals);
    // The deletions the two servers report are theirs alone (other projects of the database may add to both).
    expect(a.swept + b.swept).toBeGreaterThanOrEqual(expiredOriginals);
    // Live originals kept.
    const liveOriginals = await db().spanOriginal.count({ where: { sessionId: { in: live }, bytes: { not: null } } });
    expect(liveOriginals).toBe(live.length * 2 * SPANS_PER_SESSION);

    // The held OTLP spans: mapped once, into one session.
    const otlp = await db().session.findMany({
      where: { projectId: project.id, runtime: "otel-genai" },
      include: { spans: true },
    });
    expect(otlp).toHaveLength(1);
    expect(otlp[0]?.spans.map((s) => s.kind).sort()).toEqual(["MESSAGE", "TOOL_CALL", "TOOL_RESULT"]);

    // The indexers: every original indexed once (its key in span_search or nowhere, never both),
    // and every counter and search row of the project equal to a recount.
    const sessions = [...expired, ...live, ...otlp.map((o) => o.id)];
    expect(await db().spanSearchPending.count({ where: { sessionId: { in: sessions } } })).toBe(0);
    expect(a.indexed + b.indexed + settled).toBeGreaterThanOrEqual(liveOriginals);
    expect(await db().$transaction((tx) => driftOf(tx, project.id))).toEqual([]);

    // Jobs: the abandoned ones failed, the live ones left running.
    const imports = new Map((await db().importJob.findMany({ where: { projectId: project.id } })).map((j) => [j.id, j.status]));
    expect([imports.get(abandonedImport), imports.get(liveImport)]).toEqual(["FAILED", "RUNNING"]);
    const questions = new Map(
      (await db().questionJob.findMany({ where: { projectId: project.id } })).map((j) => [j.id, j.status]),
    );
    expect([questions.get(abandonedQuestion), questions.get(liveQuestion)]).toEqual(["FAILED", "RUNNING"]);
  }, 120_000);
});
