/**
 * Drift: every value a trigger keeps (prisma/DERIVED_STATE.md) against a recount from its source
 * rows, after random workloads through the real use cases (derived-state-workload.testkit.ts). The
 * recounts (derived-state-recount.testkit.ts) are plain SQL that calls none of the triggers' functions; the
 * grid is also read at clocks past the workload's, stored question verdicts are held to answers
 * judged afresh, and every act is checked to have moved evidence_version of each session whose
 * evidence it changed. A second test breaks each derived value by hand and sees the recount catch
 * it, so the first cannot pass for want of looking.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db, type DbTx } from "@/lib/db/client";
import { DAY_MS } from "@/lib/evidence/policy";
import { switchTriggersOff, testServerIsCitus } from "@/lib/db/test-database";
import { askEvidenceQuestion } from "@/lib/server/questions";
import { coverageOf, driftOf, evidenceSnapshot, gridAtClockDrift, versionDrift } from "./derived-state-recount.testkit";
import { CANNED, type Op, PRELUDE, runOp, startWorkload, type Workload, workloadArb } from "./derived-state-workload.testkit";

const SEED = 20261203;
const RUNS = 5;
/** A Citus cluster on one machine runs each statement through the coordinator and the workers: slower, not different. */
const TIME = testServerIsCitus() ? 4 : 1;
/** Clocks the grid is read at, after the workload's own: TTLs keep running out without a sweep. */
const LATER_DAYS = [0, 5, 30];

const COVERAGE = [
  ...["VERBATIM", "PRESERVED", "RECLAIMED", "RECLAIMED_HONEST"].map((s) => `state ${s}`),
  ...["HELD", "DELETED", "HASH_MISMATCH"].map((s) => `original ${s}`),
  ...[0, 1, 2, 3, 4].map((c) => `grid code ${c}`),
  "summary of a summary",
  "pinned",
  "refusal",
  "at risk",
  "unchecked",
  "compaction without asking",
  "seq gap",
  "horizon moved",
];

/** Runs the workload act by act, checking evidence_version around each act; returns what drifted. */
async function runWorkload(label: string, ops: Op[]): Promise<{ w: Workload; drift: string[] }> {
  const w = await startWorkload(label);
  const drift: string[] = [];
  for (const [i, op] of ops.entries()) {
    const before = await evidenceSnapshot(db(), w.projectId);
    await runOp(w, op);
    drift.push(...versionDrift(before, await evidenceSnapshot(db(), w.projectId), `act ${i} ${JSON.stringify(op)}`));
  }
  return { w, drift };
}

async function clockDrift(w: Workload): Promise<string[]> {
  const out: string[] = [];
  for (const days of LATER_DAYS)
    out.push(...(await gridAtClockDrift(db(), w.projectId, w.policy, new Date(w.clock.getTime() + days * DAY_MS))));
  return out;
}

const ask = (w: Workload, at: Date) => askEvidenceQuestion({ projectId: w.projectId, question: CANNED }, at);

/**
 * Verdicts stored at the workload's clock (and during it), read at later clocks, against answers
 * judged with no stored verdict.
 */
async function verdictDrift(w: Workload): Promise<string[]> {
  const out: string[] = [];
  for (const days of LATER_DAYS) {
    const at = new Date(w.clock.getTime() + days * DAY_MS);
    await ask(w, w.clock);
    const read = JSON.stringify(await ask(w, at));
    await db().questionVerdict.deleteMany({ where: { session: { projectId: w.projectId } } });
    const afresh = JSON.stringify(await ask(w, at));
    if (read !== afresh) out.push(`question_verdict at ${at.toISOString()}: stored ${read}, judged afresh ${afresh}`);
  }
  return out;
}

async function allDrift(w: Workload): Promise<string[]> {
  return [...(await driftOf(db(), w.projectId)), ...(await clockDrift(w)), ...(await verdictDrift(w))];
}

/** Runs `act` in a transaction, returns what the recount finds inside it, and rolls it all back. */
async function driftInside(projectId: string, act: (tx: DbTx) => Promise<unknown>): Promise<string[]> {
  let found: string[] = [];
  const rollback = new Error("rollback");
  await db()
    .$transaction(async (tx) => {
      await act(tx);
      found = await driftOf(tx, projectId);
      throw rollback;
    })
    .catch((e) => {
      if (e !== rollback) throw e;
    });
  return found;
}

describe("derived state", () => {
  it(
    "equals a recount from its source rows after random workloads through the use cases",
    async () => {
      let run = 0;
      const reached = new Set<string>();
      await fc.assert(
        fc.asyncProperty(workloadArb, async (ops) => {
          const { w, drift } = await runWorkload(`drift-${run++}`, [...PRELUDE, ...ops]);
          for (const feature of await coverageOf(db(), w.projectId)) reached.add(feature);
          expect([...drift, ...(await allDrift(w))]).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // The workloads reached every state the derived values distinguish.
      expect([...reached].sort()).toEqual([...COVERAGE].sort());
    },
    120_000 * TIME,
  );

  it(
    "the recount catches each derived value set wrong",
    async () => {
      const { w, drift } = await runWorkload("drift-broken", PRELUDE);
      expect([...drift, ...(await allDrift(w))]).toEqual([]);
      const p = w.projectId;
      const [a, b] = w.sessionIds as [string, string];
      // The workload reached what the breakages below need.
      // Two reads, not subqueries in one select list (which a Citus cluster does not push down).
      const [counts] = await db().$queryRaw<
        Array<{ lost: number; at_risk: number; refusals: number; unchecked: number; unasked: number }>
      >`
        select sum(lost_count)::int as lost, sum(at_risk_count)::int as at_risk, sum(refusal_count)::int as refusals,
               sum(unchecked_count)::int as unchecked, sum(unasked_compaction_count)::int as unasked
          from session where project_id = ${p}::uuid`;
      const [replaced] = await db().$queryRaw<Array<{ replaced: number }>>`
        select count(*)::int as replaced from span
         where session_id in (${a}::uuid, ${b}::uuid) and replacing_summary_id is not null`;
      const shape = { ...replaced, ...counts };
      expect(
        Object.values(shape!).every((n) => n > 0),
        JSON.stringify(shape),
      ).toBe(true);

      const counters = [
        "span_count",
        "non_summary_count",
        "seq_count",
        "seq_min",
        "seq_max",
        "refusal_count",
        "at_risk_count",
        "lost_count",
        "unchecked_count",
        "unasked_compaction_count",
      ];
      for (const column of counters) {
        const found = await driftInside(p, (tx) =>
          tx.$executeRawUnsafe(`update session set ${column} = coalesce(${column}, 0) + 1 where id = $1::uuid`, a),
        );
        expect(found.join("\n"), column).toContain(`session.${column} of ${a}`);
      }
      // Facts copied onto span and the original's verification, written past their triggers.
      const quietly = (sql: string) => async (tx: DbTx) => {
        await switchTriggersOff(tx);
        return tx.$executeRawUnsafe(sql, a);
      };
      const breakages: Array<[string, string]> = [
        [
          "span.original_state",
          "update span set original_state = 'ABSENT' where session_id = $1::uuid and original_state = 'HELD'",
        ],
        [
          "span.original_expires_at",
          "update span set original_expires_at = original_expires_at + interval '1 day' where session_id = $1::uuid",
        ],
        ["span.replacing_summary_id", "update span set replacing_summary_id = null where session_id = $1::uuid"],
        [
          "span.replaced_dropped",
          `update span set replaced_dropped = '[{"kind":"PATH","count":9}]' where session_id = $1::uuid and replaced_dropped is not null`,
        ],
        [
          "span_original.bytes_state",
          "update span_original set bytes_state = 'HASH_MISMATCH' where session_id = $1::uuid and bytes_state = 'HELD'",
        ],
        ["span_grid_count.n", "update span_grid_count set n = n + 1 where session_id = $1::uuid"],
        ["span_storage_count", "update span_storage_count set bytes = bytes + 1 where session_id = $1::uuid and originals > 0"],
        [
          "span_storage_count",
          "update span_storage_count set originals = originals - 1 where session_id = $1::uuid and originals > 0",
        ],
        ["span_expiry_count", "update span_expiry_count set bytes = bytes + 1 where session_id = $1::uuid and originals > 0"],
        [
          "span_expiry_count",
          "update span_expiry_count set slack_days = slack_days + 100000 where session_id = $1::uuid and originals > 0",
        ],
        ["span.generation", "update span set generation = generation + 1 where session_id = $1::uuid and kind = 'SUMMARY'"],
        ["span.unknown_call", "update span set unknown_call = not unknown_call where session_id = $1::uuid"],
        ["span_search", "delete from span_search where session_id = $1::uuid"],
        ["span_search", "update span_search set occurred_at = occurred_at + interval '1 second' where session_id = $1::uuid"],
        // Bytes gone (as the sweeper leaves them) while their text stays searchable.
        ["span_search", "update span_original set bytes = null where session_id = $1::uuid and bytes is not null"],
        // What is kept of a swept span taken for its original's bytes, or the other way round.
        ["span_search", "update span_search set kept = not kept where session_id = $1::uuid"],
        // A span both indexed and waiting for the indexer: found twice.
        [
          "span_search",
          "insert into span_search_pending select session_id, span_id from span_search where session_id = $1::uuid and not kept",
        ],
      ];
      for (const [what, sql] of breakages) expect((await driftInside(p, quietly(sql))).join("\n"), what).toContain(what);
      // A compaction that changes whether it was asked, past the triggers that count it.
      expect(
        (await driftInside(p, quietly("update compaction set asked = true where session_id = $1::uuid and not asked"))).join(
          "\n",
        ),
      ).toContain(`session.unasked_compaction_count of ${a}`);
      // A row of counters the triggers never wrote.
      expect(
        (
          await driftInside(
            p,
            (tx) =>
              tx.$executeRaw`insert into span_grid_count (session_id, class, replacing_summary_id, code, n) values (${a}::uuid, 'NARRATIVE', ${b}::uuid, 3, 1)`,
          )
        ).join("\n"),
      ).toContain("span_grid_count.n");
      // Held originals counted on a day none of the session's spans was received.
      expect(
        (
          await driftInside(
            p,
            (tx) =>
              tx.$executeRaw`insert into span_storage_count (session_id, class, day, originals, bytes) values (${a}::uuid, 'NARRATIVE', '2001-01-01', 1, 10)`,
          )
        ).join("\n"),
      ).toContain("span_storage_count");
      // Held originals counted in an hour none of the session's originals expires in.
      expect(
        (
          await driftInside(
            p,
            (tx) =>
              tx.$executeRaw`insert into span_expiry_count (session_id, class, expires_hour, slack_days, originals, bytes) values (${a}::uuid, 'STRUCTURED', '2001-01-01 05:00', 3, 1, 10)`,
          )
        ).join("\n"),
      ).toContain("span_expiry_count");

      // A write that slips past the evidence_version triggers.
      const before = await evidenceSnapshot(db(), p);
      const missed = await db()
        .$transaction(async (tx) => {
          await switchTriggersOff(tx);
          await tx.$executeRaw`update span set transcript_state = 'RECLAIMED' where session_id = ${a}::uuid and transcript_state = 'VERBATIM'`;
          const found = versionDrift(before, await evidenceSnapshot(tx, p), "an unversioned write");
          throw Object.assign(new Error("rollback"), { found });
        })
        .catch((e: Error & { found?: string[] }) => e.found ?? Promise.reject(e));
      expect(missed.join("\n")).toContain(`session.evidence_version of ${a} stayed`);

      // A stored verdict that no longer says what its session's rows do.
      await ask(w, w.clock);
      await db()
        .$executeRaw`update question_verdict set answer = jsonb_set(answer::jsonb, '{checked}', '100')::text where session_id = ${a}::uuid`;
      expect((await verdictDrift(w)).join("\n")).toContain("question_verdict");

      // All of it rolled back: the project recounts clean again.
      expect(await driftOf(db(), p)).toEqual([]);
    },
    30_000 * TIME,
  );
});
