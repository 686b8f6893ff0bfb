/**
 * The storage figures read from span_storage_count (kept by triggers on span) against their
 * definition: every held original of the project, scanned span by span. Random workloads run
 * through the real use cases (ingest, imported summaries, reclamations that ratchet a summary's
 * class, pin, unpin, expiry changes, the sweeper, damage found by the scrub) and through the
 * writes no use case makes yet (an operator's reclassification, spans received on earlier days,
 * a session deleted); after each workload the figures must equal the scan's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { EVIDENTIAL_CLASSES, type EvidentialClass } from "@/lib/evidence/types";
import { makeTestProject } from "@/lib/server/admin/test-project";
import type { Actor } from "@/lib/server/audit";
import { storageCounterDrift } from "@/lib/server/derived-state-recount.testkit";
import { candidateSummaryFor, reclaim } from "@/lib/server/gate";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { pinOriginal, setOriginalExpiry, unpinOriginal } from "@/lib/server/provenance";
import { type StorageFigures, storageFigures, sweep } from "@/lib/server/retention";

const SEED = 20261203;
const RUNS = 6;
const ACTOR: Actor = { type: "USER", id: "storage-test", label: "storage@example.com" };
const RUNTIMES = ["claude-code", "codex", "claude-code"];
const SESSIONS = RUNTIMES.length;
const enc = (s: string) => new TextEncoder().encode(s);
const num = (v: bigint | number | null) => Number(v ?? 0);

/**
 * The figures as they were read before the counters: a join of the project's sessions to every
 * span whose original is held, grouped by session and class, and by the UTC day of receipt.
 */
async function scannedFigures(projectId: string, now: Date, days: number): Promise<StorageFigures> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
  const perSession = await db().$queryRaw<
    Array<{ session_id: string; title: string; runtime: string; class: string; n: bigint; bytes: bigint }>
  >`
    select se.id::text as session_id, coalesce(se.title, se.external_id) as title, se.runtime, s.class::text as class,
           count(*) as n, sum(s.byte_length)::bigint as bytes
      from session se join span s on s.session_id = se.id
     where se.project_id = ${projectId}::uuid and s.original_state = 'HELD'
     group by se.id, s.class`;
  const growth = await db().$queryRaw<Array<{ day: string; n: bigint; bytes: bigint }>>`
    select to_char(date_trunc('day', s.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*) as n,
           sum(s.byte_length)::bigint as bytes
      from session se join span s on s.session_id = se.id
     where se.project_id = ${projectId}::uuid and s.original_state = 'HELD' and s.created_at >= ${since}
     group by 1`;
  const byClass = Object.fromEntries(EVIDENTIAL_CLASSES.map((c) => [c, { originals: 0, bytes: 0 }])) as StorageFigures["byClass"];
  const runtimes = new Map<string, { originals: number; bytes: number }>();
  const sessions = new Map<string, StorageFigures["bySession"][number]>();
  const total = { originals: 0, bytes: 0 };
  for (const r of perSession) {
    const [n, bytes] = [num(r.n), num(r.bytes)];
    for (const sum of [byClass[r.class as EvidentialClass], total]) {
      sum.originals += n;
      sum.bytes += bytes;
    }
    const rt = runtimes.get(r.runtime) ?? { originals: 0, bytes: 0 };
    runtimes.set(r.runtime, { originals: rt.originals + n, bytes: rt.bytes + bytes });
    const se = sessions.get(r.session_id) ?? {
      sessionId: r.session_id,
      title: r.title,
      runtime: r.runtime,
      originals: 0,
      bytes: 0,
    };
    sessions.set(r.session_id, { ...se, originals: se.originals + n, bytes: se.bytes + bytes });
  }
  const perDay = new Map(growth.map((g) => [g.day, g]));
  return {
    total,
    byClass,
    byRuntime: [...runtimes].map(([runtime, v]) => ({ runtime, ...v })),
    bySession: [...sessions.values()],
    growth: Array.from({ length: days }, (_, i) => {
      const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      const g = perDay.get(date);
      return { date, originals: num(g?.n ?? 0), bytes: num(g?.bytes ?? 0) };
    }),
  };
}

/** Lists in one order whatever the order of ties (the scan's order among equal sizes is the database's). */
const canonical = (f: StorageFigures) => ({
  ...f,
  byRuntime: [...f.byRuntime].sort((a, b) => b.bytes - a.bytes || a.runtime.localeCompare(b.runtime)),
  bySession: [...f.bySession].sort((a, b) => b.bytes - a.bytes || a.sessionId.localeCompare(b.sessionId)),
});

/** The figures against the scan, whole and as the overview (one day, no sessions) and a short top list read them. */
async function expectFiguresOfScan(projectId: string, now: Date, days: number) {
  const scanned = canonical(await scannedFigures(projectId, now, days));
  const read = await storageFigures(projectId, now, days, 1_000);
  expect(read.bySession.map((s) => s.bytes)).toEqual(scanned.bySession.map((s) => s.bytes));
  expect(read.byRuntime.map((s) => s.bytes)).toEqual(scanned.byRuntime.map((s) => s.bytes));
  expect(canonical(read)).toEqual(scanned);
  const overview = await storageFigures(projectId, now, 1, 0);
  expect(overview).toEqual({ ...scanned, bySession: [], growth: scanned.growth.slice(-1) });
  const top = await storageFigures(projectId, now, days, 2);
  expect(top.bySession.map((s) => s.bytes)).toEqual(scanned.bySession.slice(0, 2).map((s) => s.bytes));
  return scanned;
}

type Op =
  | { t: "ingest"; s: number; templates: number[]; receivedDaysAgo: number }
  | { t: "summary"; s: number }
  | { t: "reclaim"; s: number; pick: number[]; observed: boolean; ratchet: boolean }
  | { t: "pin" | "unpin" | "damage"; k: number }
  | { t: "expiry"; k: number; days: number }
  | { t: "reclassify"; k: number; cls: EvidentialClass }
  | { t: "tick"; days: number }
  | { t: "delete"; s: number };

const TEMPLATES: Array<
  (seq: number) => { kind: "MESSAGE" | "TOOL_CALL"; toolName?: string; toolInput?: unknown; body: Uint8Array }
> = [
  (seq) => ({ kind: "MESSAGE", body: enc(`Let me look around first${".".repeat(seq % 7)}`) }),
  (seq) => ({ kind: "MESSAGE", body: enc(`The timeout is now 30s (SHOP-${1000 + seq}); see src/checkout/session.ts:88.`) }),
  (seq) => {
    const input = { path: `/etc/app/conf-${seq}.yaml`, content: "x".repeat(seq * 13) };
    return { kind: "TOOL_CALL", toolName: "write_file", toolInput: input, body: enc(JSON.stringify(input)) };
  },
  (seq) => {
    const input = { command: `rg -n TODO src/ --max-count ${seq + 1}` };
    return { kind: "TOOL_CALL", toolName: "Bash", toolInput: input, body: enc(JSON.stringify(input)) };
  },
];

const index = fc.nat({ max: 200 });
const session = fc.nat({ max: SESSIONS - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("ingest" as const),
      s: session,
      templates: fc.array(fc.nat({ max: TEMPLATES.length - 1 }), { minLength: 1, maxLength: 5 }),
      receivedDaysAgo: fc.oneof(fc.constant(0), fc.nat({ max: 40 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("summary" as const), s: session }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("reclaim" as const),
      s: session,
      pick: fc.array(index, { minLength: 1, maxLength: 3 }),
      observed: fc.boolean(),
      ratchet: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom("pin" as const, "unpin" as const, "damage" as const), k: index }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("expiry" as const), k: index, days: fc.integer({ min: 1, max: 60 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant("reclassify" as const), k: index, cls: fc.constantFrom(...EVIDENTIAL_CLASSES) }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("tick" as const), days: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("delete" as const), s: session }) },
);

/** Each workload starts with spans in every session, received on two days, and ends with what happened to them. */
const PRELUDE: Op[] = [
  { t: "ingest", s: 0, templates: [0, 1, 2, 3], receivedDaysAgo: 0 },
  { t: "ingest", s: 1, templates: [2, 2, 1], receivedDaysAgo: 3 },
  { t: "ingest", s: 2, templates: [3, 0], receivedDaysAgo: 0 },
  { t: "summary", s: 0 },
];

interface Workload {
  projectId: string;
  sessionIds: string[];
  clock: Date;
  nextSeq: number[];
  created: number;
}

async function startWorkload(label: string): Promise<Workload> {
  // Short TTLs: the sweeper deletes originals of every class within the workload.
  const project = await makeTestProject(label, {
    ...DEFAULT_POLICY,
    ttlDays: { NARRATIVE: 3, STRUCTURED: 15, SIDE_EFFECTING: 40 },
  });
  const w: Workload = { projectId: project.id, sessionIds: [], clock: new Date(), nextSeq: [], created: 0 };
  for (let s = 0; s < SESSIONS; s++) await newSession(w, s);
  return w;
}

async function newSession(w: Workload, s: number) {
  const { session } = await upsertSession(w.projectId, { externalId: `session-${w.created++}`, runtime: RUNTIMES[s]! });
  w.sessionIds[s] = session.id;
  w.nextSeq[s] = 0;
}

/** The k-th span of the workload's sessions (only those whose original still has bytes, if asked), in a stable order. */
async function spanAt(w: Workload, k: number, withBytes = false) {
  const spans = await db().span.findMany({
    where: { sessionId: { in: w.sessionIds }, ...(withBytes ? { original: { bytes: { not: null } } } : {}) },
    select: { id: true, sessionId: true },
    orderBy: [{ sessionId: "asc" }, { seq: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  });
  return spans.length === 0 ? undefined : spans[k % spans.length]!;
}

async function apply(w: Workload, op: Op): Promise<void> {
  switch (op.t) {
    case "ingest":
    case "summary": {
      const start = w.nextSeq[op.s]!;
      const batch =
        op.t === "summary"
          ? [{ seq: start, kind: "SUMMARY" as const, occurredAt: w.clock, body: enc(`Configured the app (imported ${start}).`) }]
          : op.templates.map((t, i) => ({ seq: start + i, occurredAt: w.clock, ...TEMPLATES[t]!(start + i) }));
      const spans = await appendSpans(w.projectId, w.sessionIds[op.s]!, batch);
      w.nextSeq[op.s] = start + batch.length;
      // Received on an earlier day (as spans moved in from an older store would be): created_at moves back.
      if (op.t === "ingest" && op.receivedDaysAgo > 0)
        await db().$executeRaw`update span set created_at = created_at - ${op.receivedDaysAgo}::int * interval '1 day'
          where session_id = ${w.sessionIds[op.s]}::uuid and id = any(${spans.map((s) => s.id)}::uuid[])`;
      return;
    }
    case "reclaim": {
      const sessionId = w.sessionIds[op.s]!;
      const open = await db().span.findMany({
        where: { sessionId, kind: { not: "SUMMARY" }, transcriptState: { in: ["VERBATIM", "PRESERVED"] } },
        select: { id: true },
        orderBy: { seq: "asc" },
      });
      if (open.length === 0) return;
      const ids = [...new Set(op.pick.map((i) => open[i % open.length]!.id))];
      // An imported summary span takes the class of what it now replaces if higher: the ratchet.
      const existing = op.ratchet
        ? await db().span.findFirst({ where: { sessionId, kind: "SUMMARY" }, select: { id: true } })
        : null;
      const summary = await candidateSummaryFor(sessionId, ids, "Wrote /etc/app/conf.yaml; the timeout is 30s.", {
        pointers: true,
      });
      await reclaim({
        projectId: w.projectId,
        sessionId,
        selection: { spanIds: ids },
        summary,
        dryRun: false,
        requester: "storage-test",
        at: w.clock,
        observed: op.observed || existing !== null,
        ...(existing ? { summarySpanId: existing.id } : {}),
      });
      return;
    }
    case "pin":
    case "unpin":
    case "expiry":
    case "damage": {
      const span = await spanAt(w, op.k, true);
      if (!span) return;
      const ref = { projectId: w.projectId, spanId: span.id };
      if (op.t === "pin") await pinOriginal(ref, ACTOR, "legal hold");
      else if (op.t === "unpin") await unpinOriginal(ref, ACTOR, "hold lifted");
      else if (op.t === "expiry")
        await setOriginalExpiry(ref, ACTOR, new Date(w.clock.getTime() + op.days * DAY_MS), "moved by the workload", w.clock);
      else {
        await db().$transaction(async (tx) => {
          // Bytes changed behind the database's back, then found by the sweeper's scrub.
          await tx.$executeRaw`set local session_replication_role = replica`;
          await tx.$executeRaw`update span_original set bytes = ${"damaged"}::bytea, verified_at = '1970-01-01'
            where session_id = ${span.sessionId}::uuid and span_id = ${span.id}::uuid`;
        });
        await sweep(w.clock, 10_000, 1);
      }
      return;
    }
    case "reclassify": {
      const span = await spanAt(w, op.k);
      if (span)
        await db().$executeRaw`update span set class = ${op.cls}::"EvidentialClass",
          class_override = ${JSON.stringify({ class: op.cls, by: ACTOR.label, reason: "operator review" })}::jsonb
          where session_id = ${span.sessionId}::uuid and id = ${span.id}::uuid`;
      return;
    }
    case "tick":
      w.clock = new Date(w.clock.getTime() + op.days * DAY_MS);
      await sweep(w.clock);
      return;
    case "delete":
      await db().session.delete({ where: { id: w.sessionIds[op.s]! } });
      await newSession(w, op.s);
      return;
  }
}

describe("storage figures", () => {
  it("equal a scan of the held spans after random workloads", async () => {
    let run = 0;
    const reached = { swept: false, days: false, sessions: false, classes: false };
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 16 }), async (ops) => {
        const w = await startWorkload(`storage-${run++}`);
        for (const op of [...PRELUDE, ...ops]) await apply(w, op).catch(refusedOrThrow);
        const f = await expectFiguresOfScan(w.projectId, new Date(), 45);
        expect(await storageCounterDrift(db(), w.projectId)).toEqual([]);
        const [lost] = await db().$queryRaw<Array<{ n: number }>>`
          select count(*)::int as n from span s join session se on se.id = s.session_id
           where se.project_id = ${w.projectId}::uuid and s.original_state <> 'HELD'`;
        reached.swept ||= lost!.n > 0;
        reached.days ||= f.growth.filter((g) => g.originals > 0).length > 1;
        reached.sessions ||= f.bySession.length > 1 && f.byRuntime.length > 1;
        reached.classes ||= Object.values(f.byClass).every((c) => c.originals > 0);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // The workloads reached what the figures distinguish.
    expect(reached).toEqual({ swept: true, days: true, sessions: true, classes: true });
  }, 120_000);

  it("add up what was received and is still held, per class, runtime, session and day", async () => {
    const project = await makeTestProject("storage-hand");
    const other = await makeTestProject("storage-other");
    const now = new Date();
    const ingest = async (projectId: string, externalId: string, runtime: string, bodies: string[]) => {
      const { session } = await upsertSession(projectId, { externalId, runtime, title: `${externalId} title` });
      const spans = await appendSpans(
        projectId,
        session.id,
        bodies.map((b, seq) => ({ seq, kind: "MESSAGE" as const, occurredAt: now, body: enc(b) })),
      );
      return { session, spans };
    };
    const a = await ingest(project.id, "a", "claude-code", ["one", "three", "fiftyfifty"]);
    const b = await ingest(project.id, "b", "codex", ["four", "sixsix"]);
    await ingest(other.id, "c", "claude-code", ["not this project's"]);
    // a's second span was received yesterday; its third's bytes are gone.
    await db().$executeRaw`update span set created_at = created_at - interval '1 day' where id = ${a.spans[1]!.id}::uuid`;
    await db().spanOriginal.update({
      where: { sessionId_spanId: { sessionId: a.session.id, spanId: a.spans[2]!.id } },
      data: { bytes: null },
    });
    const f = await storageFigures(project.id, now, 3, 1);
    expect(f.total).toEqual({ originals: 4, bytes: 3 + 5 + 4 + 6 });
    expect(f.byClass.NARRATIVE).toEqual(f.total);
    expect(f.byRuntime).toEqual([
      { runtime: "codex", originals: 2, bytes: 10 },
      { runtime: "claude-code", originals: 2, bytes: 8 },
    ]);
    expect(f.bySession).toEqual([{ sessionId: b.session.id, title: "b title", runtime: "codex", originals: 2, bytes: 10 }]);
    const day = (d: number) => new Date(now.getTime() - d * DAY_MS).toISOString().slice(0, 10);
    expect(f.growth).toEqual([
      { date: day(2), originals: 0, bytes: 0 },
      { date: day(1), originals: 1, bytes: 5 },
      { date: day(0), originals: 3, bytes: 13 },
    ]);
    await expectFiguresOfScan(project.id, now, 3);
  });
});

/** A use case's refusal of a valid request (the original is gone, the spans were already replaced) is part of the workload. */
function refusedOrThrow(error: unknown) {
  const code = (error as { code?: unknown }).code;
  if (code === "GONE" || code === "CONFLICT") return;
  throw error;
}
