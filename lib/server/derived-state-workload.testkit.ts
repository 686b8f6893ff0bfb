/**
 * A random workload through the real use cases, for the derived-state drift test
 * (derived-state.db.test.ts): ingest (with seq gaps, resubmissions and conflicts, imported
 * summaries), reclamations (with all, some or no pointers, honest or not, asked or observed, over
 * summaries too), pin, unpin, extend and shorten, the sweeper at clocks past TTLs, damage found by
 * the scrub, policy changes that move the evidence horizon, working-directory changes and stored
 * question verdicts. Operations hold indexes, resolved against what the database holds when they
 * run, so every generated sequence is valid.
 */
import fc from "fast-check";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { switchTriggersOff } from "@/lib/db/test-database";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { makeTestProject } from "@/lib/server/admin/test-project";
import type { Actor } from "@/lib/server/audit";
import { candidateSummaryFor, reclaim } from "@/lib/server/gate";
import { appendSpans, upsertSession } from "@/lib/server/ingest";
import { pinOriginal, setOriginalExpiry, unpinOriginal } from "@/lib/server/provenance";
import { askEvidenceQuestion } from "@/lib/server/questions";
import { sweep, updatePolicy } from "@/lib/server/retention";
import { indexAllPending } from "@/lib/server/search";

export type Op =
  | { t: "ingest"; s: number; gap: number; spans: Array<{ template: number; ageDays: number }> }
  | { t: "summary"; s: number; ageDays: number }
  | { t: "resubmit"; s: number; conflict: boolean }
  | { t: "reclaim"; s: number; pick: number[]; pointers: "all" | "some" | "none"; honest: boolean; observed: boolean }
  | { t: "pin" | "unpin" | "damage"; k: number }
  | { t: "expiry"; k: number; days: number }
  | { t: "tick"; days: number }
  | { t: "horizon"; days: number }
  | { t: "cwd"; s: number; cwd: number }
  | { t: "ask" }
  /** The search indexer's run: spans stored before it are indexed, later ones wait for the next. */
  | { t: "index" };

export const SESSIONS = 3;
const CWDS = ["/home/dev/app", "/srv/other", null] as const;
/** Short TTLs against a 20-day horizon: spans of every class land in every status within the workload. */
export const WORKLOAD_POLICY: RetentionPolicy = {
  ...DEFAULT_POLICY,
  evidenceHorizonDays: 20,
  ttlDays: { NARRATIVE: 3, STRUCTURED: 15, SIDE_EFFECTING: 40 },
};
export const CANNED = { canned: "modified-system-config" } as const;
const ACTOR: Actor = { type: "USER", id: "drift-test", label: "drift@example.com" };
const enc = (s: string) => new TextEncoder().encode(s);

/** Narrative, structured and side-effecting spans of every kind. */
const TEMPLATES: Array<
  (seq: number) => {
    kind: "MESSAGE" | "TOOL_CALL" | "TOOL_RESULT";
    role?: string;
    toolName?: string;
    toolInput?: unknown;
    body: Uint8Array;
  }
> = [
  () => ({ kind: "MESSAGE", role: "assistant", body: enc("Let me look around first.") }),
  (seq) => ({
    kind: "MESSAGE",
    role: "assistant",
    body: enc(`The timeout is now 30s (SHOP-${1000 + seq}); see src/checkout/session.ts:88.`),
  }),
  (seq) => {
    const input = { path: `/etc/app/conf-${seq}.yaml`, mode: "overwrite" };
    return { kind: "TOOL_CALL", toolName: "write_file", toolInput: input, body: enc(JSON.stringify(input)) };
  },
  (seq) => {
    const input = { command: `rg -n TODO src/ --max-count ${seq + 1}` };
    return { kind: "TOOL_CALL", toolName: "Bash", toolInput: input, body: enc(JSON.stringify(input)) };
  },
  (seq) => {
    const input = { command: `sudo apt-get install -y nginx=1.${seq}` };
    return { kind: "TOOL_CALL", toolName: "Bash", toolInput: input, body: enc(JSON.stringify(input)) };
  },
  (seq) => ({ kind: "TOOL_RESULT", role: "tool", toolName: "Bash", body: enc(`wrote ${300 + seq} bytes to /etc/app/conf.yaml`) }),
];
const SUMMARY_TEXTS = [
  "The agent configured the application's YAML configuration.",
  "Wrote /etc/app/conf.yaml and installed nginx; the timeout is 30s.",
  "Looked around.",
];

const index = fc.nat({ max: 200 });
const session = fc.nat({ max: SESSIONS - 1 });

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("ingest" as const),
      s: session,
      gap: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
      spans: fc.array(fc.record({ template: fc.nat({ max: TEMPLATES.length - 1 }), ageDays: fc.nat({ max: 30 }) }), {
        minLength: 1,
        maxLength: 5,
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("summary" as const), s: session, ageDays: fc.nat({ max: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("resubmit" as const), s: session, conflict: fc.boolean() }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant("reclaim" as const),
      s: session,
      pick: fc.array(index, { minLength: 1, maxLength: 4 }),
      pointers: fc.constantFrom("all" as const, "some" as const, "none" as const),
      honest: fc.boolean(),
      observed: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom("pin" as const, "unpin" as const), k: index }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("damage" as const), k: index }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("expiry" as const), k: index, days: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("tick" as const), days: fc.integer({ min: 0, max: 25 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("horizon" as const), days: fc.constantFrom(5, 20, 60, 400) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("cwd" as const), s: session, cwd: fc.nat({ max: CWDS.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("ask" as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("index" as const) }) },
);

export const workloadArb = fc.array(opArb, { minLength: 4, maxLength: 14 });

const aged = (templates: number[], ageDays: number) => templates.map((template) => ({ template, ageDays }));

/**
 * Where every workload starts: spans of each class in three sessions (one with a seq gap; the
 * first two indexed for search, the third still waiting for the indexer), a refused, a
 * pointerless observed and an honest reclamation, a summary of a summary, a pin, a longer TTL,
 * damaged bytes, a stored verdict, a sweep and a moved horizon. The random acts then interleave
 * with all of it.
 */
export const PRELUDE: Op[] = [
  { t: "ingest", s: 0, gap: 0, spans: [...aged([0, 1, 2], 2), ...aged([3], 25), ...aged([4, 5, 1], 2)] },
  { t: "ingest", s: 0, gap: 2, spans: aged([2, 4, 0], 1) },
  { t: "ingest", s: 1, gap: 0, spans: aged([0, 2, 5, 1, 3], 10) },
  { t: "index" },
  { t: "ingest", s: 2, gap: 0, spans: aged([1, 2], 0) },
  { t: "reclaim", s: 0, pick: [0, 1, 2], pointers: "all", honest: false, observed: false },
  { t: "reclaim", s: 0, pick: [8, 9], pointers: "none", honest: false, observed: true },
  { t: "reclaim", s: 1, pick: [1, 2, 3], pointers: "all", honest: true, observed: false },
  { t: "reclaim", s: 1, pick: [0, 1, 2], pointers: "some", honest: false, observed: true },
  { t: "pin", k: 4 },
  { t: "expiry", k: 5, days: 200 },
  { t: "damage", k: 6 },
  { t: "ask" },
  { t: "tick", days: 4 },
  { t: "horizon", days: 60 },
];

export interface Workload {
  projectId: string;
  sessionIds: string[];
  /** The clock the workload has reached: every act ran at or before it. */
  clock: Date;
  policy: RetentionPolicy;
  nextSeq: number[];
  lastBatch: Array<Parameters<typeof appendSpans>[2]>;
}

export async function startWorkload(label: string): Promise<Workload> {
  const project = await makeTestProject(label, WORKLOAD_POLICY);
  const sessionIds: string[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const { session } = await upsertSession(project.id, { externalId: `${label}-${s}`, runtime: "claude-code", cwd: CWDS[0] });
    sessionIds.push(session.id);
  }
  return {
    projectId: project.id,
    sessionIds,
    // Now: ingest may count a TTL from receipt (the real clock); acts and sweeps run at this clock.
    clock: new Date(),
    policy: WORKLOAD_POLICY,
    nextSeq: sessionIds.map(() => 0),
    lastBatch: sessionIds.map(() => []),
  };
}

/** Refusals a use case answers with on a valid request (the original is gone, a seq conflicts): part of the workload. */
const EXPECTED_REFUSALS = new Set(["GONE", "CONFLICT"]);

export async function runOp(w: Workload, op: Op): Promise<void> {
  try {
    await apply(w, op);
  } catch (error) {
    if (!(error instanceof AppError && EXPECTED_REFUSALS.has(error.code))) throw error;
  }
}

async function apply(w: Workload, op: Op): Promise<void> {
  const days = (n: number) => new Date(w.clock.getTime() - n * DAY_MS);
  switch (op.t) {
    case "ingest": {
      const sessionId = w.sessionIds[op.s]!;
      const start = w.nextSeq[op.s]! + op.gap;
      const batch = op.spans.map((x, i) => ({
        seq: start + i,
        occurredAt: days(x.ageDays),
        ...TEMPLATES[x.template]!(start + i),
      }));
      await appendSpans(w.projectId, sessionId, batch);
      w.nextSeq[op.s] = start + batch.length;
      w.lastBatch[op.s] = batch;
      return;
    }
    case "summary": {
      const seq = w.nextSeq[op.s]!;
      const batch = [
        { seq, kind: "SUMMARY" as const, occurredAt: days(op.ageDays), body: enc(`${SUMMARY_TEXTS[seq % 3]} (imported ${seq})`) },
      ];
      await appendSpans(w.projectId, w.sessionIds[op.s]!, batch);
      w.nextSeq[op.s] = seq + 1;
      w.lastBatch[op.s] = batch;
      return;
    }
    case "resubmit": {
      const batch = w.lastBatch[op.s]!;
      if (batch.length === 0) return;
      const again = op.conflict ? batch.map((b, i) => (i === 0 ? { ...b, body: enc("other bytes") } : b)) : batch;
      await appendSpans(w.projectId, w.sessionIds[op.s]!, again);
      return;
    }
    case "reclaim": {
      const sessionId = w.sessionIds[op.s]!;
      const open = await db().span.findMany({
        where: { sessionId, transcriptState: { in: ["VERBATIM", "PRESERVED"] } },
        select: { id: true },
        // Summaries (no seq) first: a pick that includes index 0 summarises a summary when there is one.
        orderBy: [{ seq: { sort: "asc", nulls: "first" } }, { id: "asc" }],
      });
      if (open.length === 0) return;
      const ids = [...new Set(op.pick.map((i) => open[i % open.length]!.id))];
      const text = SUMMARY_TEXTS[op.pick[0]! % SUMMARY_TEXTS.length]!;
      const summary = await candidateSummaryFor(sessionId, ids, text, { pointers: op.pointers !== "none", honest: op.honest });
      if (op.pointers === "some") summary.pointers = summary.pointers.filter((_, i) => i % 2 === 0);
      await reclaim({
        projectId: w.projectId,
        sessionId,
        selection: { spanIds: ids },
        summary,
        dryRun: false,
        requester: "drift-test",
        at: w.clock,
        observed: op.observed,
      });
      return;
    }
    case "pin":
    case "unpin":
    case "damage":
    case "expiry": {
      const span = await pickSpan(w, op.k);
      if (!span) return;
      const ref = { projectId: w.projectId, spanId: span.id };
      if (op.t === "pin") await pinOriginal(ref, ACTOR, "legal hold");
      else if (op.t === "unpin") await unpinOriginal(ref, ACTOR, "hold lifted");
      else if (op.t === "expiry")
        await setOriginalExpiry(ref, ACTOR, new Date(w.clock.getTime() + op.days * DAY_MS), "moved by the workload", w.clock);
      else await damageThenScrub(w, span);
      return;
    }
    case "tick":
      w.clock = new Date(w.clock.getTime() + op.days * DAY_MS);
      await sweep(w.clock);
      return;
    case "horizon":
      w.policy = { ...w.policy, evidenceHorizonDays: op.days };
      await updatePolicy(w.projectId, { policy: w.policy }, ACTOR, "the workload moves the horizon");
      return;
    case "cwd":
      await upsertSession(w.projectId, {
        externalId: await externalIdOf(w.sessionIds[op.s]!),
        runtime: "claude-code",
        cwd: CWDS[op.cwd],
      });
      return;
    case "ask":
      await askEvidenceQuestion({ projectId: w.projectId, question: CANNED }, w.clock);
      return;
    case "index":
      await indexAllPending();
      return;
  }
}

async function externalIdOf(sessionId: string): Promise<string> {
  return (await db().session.findUniqueOrThrow({ where: { id: sessionId }, select: { externalId: true } })).externalId;
}

/** The k-th span of the project (summaries included), in a stable order. */
async function pickSpan(w: Workload, k: number): Promise<{ id: string; sessionId: string } | undefined> {
  const spans = await db().span.findMany({
    where: { sessionId: { in: w.sessionIds } },
    select: { id: true, sessionId: true },
    orderBy: [{ sessionId: "asc" }, { seq: { sort: "asc", nulls: "last" } }, { id: "asc" }],
  });
  return spans.length === 0 ? undefined : spans[k % spans.length];
}

/** Bytes changed behind the database's back (no trigger sees it), then found by the sweeper's scrub. */
async function damageThenScrub(w: Workload, span: { id: string; sessionId: string }) {
  await db().$transaction(async (tx) => {
    await switchTriggersOff(tx);
    // Verified longest ago of all originals: the scrub's next pick.
    await tx.$executeRaw`update span_original set bytes = ${"damaged bytes"}::bytea, verified_at = '1970-01-01'
      where session_id = ${span.sessionId}::uuid and span_id = ${span.id}::uuid and bytes is not null`;
  });
  await sweep(w.clock, 10_000, 1);
}
