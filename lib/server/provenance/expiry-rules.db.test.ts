/**
 * The expiry and at-risk rules have one spelling in the pure engine (lib/evidence/expiry.ts,
 * at-risk.ts, provenance.ts) and one in SQL (EXPIRY_RULE and STATUS_RULE in status-sql.ts, the
 * SQL functions written from them, the counters' slack form). This holds each SQL spelling equal to
 * the pure one over a table of cases at the boundary instants (the TTL at now, a millisecond either
 * side; the expiry at the horizon, a millisecond either side), every original state, pinned or not,
 * narrative or not: an edit of one side alone fails it. The same for "unchecked" (custodian_span_unchecked
 * and the clauses the queries read, against the pure engine's isCheckable).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { atRiskWhateverTheClock, isAtRisk } from "@/lib/evidence/at-risk";
import { ttlPassed } from "@/lib/evidence/expiry";
import { DAY_MS, DEFAULT_POLICY } from "@/lib/evidence/policy";
import { isRetrievable, provenanceStatus } from "@/lib/evidence/provenance";
import { isCheckable, type QuestionSpan } from "@/lib/evidence/questions";
import type { EvidentialClass, OriginalFacts, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { slackBeforeHorizon, spanAtRisk } from "./at-risk-sql";
import { replacedInTranscript } from "./unchecked-sql";
import {
  goneWhateverTheClock,
  type OriginalStateValue,
  heldPastTtl,
  heldTtlAhead,
  sqlTime,
  statusExpression,
  ttlAheadSql,
  ttlPassedSql,
} from "./status-sql";

interface Case {
  state: OriginalStateValue;
  pinned: boolean;
  hasPointer: boolean;
  cls: EvidentialClass;
  occurredAt: Date;
  expiresAt: Date | null;
}

const now = new Date("2026-12-01T12:00:00.000Z");
const MS = 1;

/** The original as the pure engine reads it (null: never received). */
function original(c: Case): OriginalFacts | null {
  if (c.state === "ABSENT") return null;
  return { present: c.state !== "DELETED", hashMatches: c.state === "HELD", pinned: c.pinned, expiresAt: c.expiresAt };
}

/** The expiry the span's row carries: null when pinned, deleted or never received (span_original_to_span). */
function copiedExpiry(c: Case): Date | null {
  return c.pinned || c.state === "DELETED" || c.state === "ABSENT" ? null : c.expiresAt;
}

function cases(horizonDays: number): Case[] {
  // Occurred at an odd instant, so that whole days from occurrence to expiry are floored.
  const occurredAt = new Date(now.getTime() - 10 * DAY_MS - 12_345);
  const horizon = occurredAt.getTime() + horizonDays * DAY_MS;
  const instants = [
    null,
    occurredAt.getTime() - MS,
    now.getTime() - MS,
    now.getTime(),
    now.getTime() + MS,
    horizon - DAY_MS,
    horizon - MS,
    horizon,
    horizon + MS,
    horizon + DAY_MS,
  ];
  const out: Case[] = [];
  for (const state of ["HELD", "HASH_MISMATCH", "DELETED", "ABSENT"] as const)
    for (const pinned of [false, true])
      for (const hasPointer of [true, false])
        for (const cls of ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const)
          for (const at of instants) {
            if (state === "ABSENT" && (pinned || at !== null)) continue;
            out.push({ state, pinned, hasPointer, cls, occurredAt, expiresAt: at === null ? null : new Date(at) });
          }
  return out;
}

interface Judged {
  i: number;
  status: string;
  at_risk: boolean;
  slack_at_risk: boolean;
  listed: boolean;
  passed: boolean | null;
  ahead: boolean | null;
  held_past: boolean | null;
  held_ahead: boolean | null;
}

/** Every SQL spelling over the cases, as the queries apply them to span row `x`. */
async function judgeInSql(list: Case[], horizonDays: number): Promise<Judged[]> {
  const rows = list.map((c, i) => {
    const expires = copiedExpiry(c);
    return Prisma.sql`(${i}::int, ${c.hasPointer}::boolean, ${c.state}::"OriginalState", ${expires ? sqlTime(expires) : Prisma.sql`null::timestamp`}, ${sqlTime(c.occurredAt)}, ${c.cls}::"EvidentialClass")`;
  });
  const h = Prisma.sql`${horizonDays}::int`;
  const atRisk = spanAtRisk("x", h);
  return db().$queryRaw<Judged[]>`
    select x.i, ${statusExpression("x", { now, horizonDays })} as status, ${atRisk} as at_risk,
           (x.class <> 'NARRATIVE' and x.original_state in ('HELD', 'HASH_MISMATCH')
             and coalesce(${slackBeforeHorizon(Prisma.sql`custodian_slack_days(x.original_expires_at, x.occurred_at)`, h)}, false)) as slack_at_risk,
           (${atRisk} and ${ttlAheadSql("x.original_expires_at", now)}) as listed,
           ${ttlPassedSql("x.original_expires_at", now)} as passed, ${ttlAheadSql("x.original_expires_at", now)} as ahead,
           ${heldPastTtl("x", now)} as held_past, ${heldTtlAhead("x", now)} as held_ahead
      from (values ${Prisma.join(rows)}) as x(i, has_pointer, original_state, original_expires_at, occurred_at, class)
     order by x.i`;
}

describe("the expiry and at-risk rules: SQL and the pure engine agree at the boundaries", () => {
  for (const horizonDays of [1, 11, DEFAULT_POLICY.evidenceHorizonDays]) {
    it(`with a horizon of ${horizonDays} days`, async () => {
      const policy: RetentionPolicy = { ...DEFAULT_POLICY, evidenceHorizonDays: horizonDays };
      const list = cases(horizonDays);
      const judged = await judgeInSql(list, horizonDays);
      expect(judged).toHaveLength(list.length);
      for (const row of judged) {
        const c = list[row.i]!;
        const o = original(c);
        const facts = { class: c.cls, occurredAt: c.occurredAt, original: o };
        const label = `case ${JSON.stringify(c)}`;
        const passed = o?.present === true && ttlPassed(o, now);
        const held = c.hasPointer && c.state === "HELD";
        const expected = {
          status: provenanceStatus({ hasPointer: c.hasPointer, original: o, occurredAt: c.occurredAt }, policy, now),
          // The session counters' rule, whatever the clock (an original stays counted until swept).
          at_risk: atRiskWhateverTheClock(facts, policy),
          slack_at_risk: atRiskWhateverTheClock(facts, policy),
          // The retention page's list: the same, while the TTL is ahead. Damaged bytes stay listed
          // (a pin still keeps them); isAtRisk, which leaves them out, is the list less those.
          listed: atRiskWhateverTheClock(facts, policy) && !passed,
          // Null (the SQL's unknown) only where the row carries no expiry: pinned, no TTL, gone.
          passed: copiedExpiry(c) === null ? null : passed,
          ahead: copiedExpiry(c) === null ? null : !passed,
          held_past: held && passed,
          held_ahead: held && copiedExpiry(c) !== null && !passed,
        };
        const got = {
          ...row,
          held_past: row.held_past ?? false,
          held_ahead: row.held_ahead ?? false,
        };
        const { i: _i, ...shown } = got;
        expect(shown, label).toEqual(expected);
        expect(isAtRisk(facts, policy, now), label).toBe(row.listed && c.state === "HELD");
      }
    });
  }
});

describe("unchecked: SQL and the pure engine agree", () => {
  it("a replaced span is unchecked in SQL (kept whatever the clock, or made so by it) exactly when the engine cannot check it", async () => {
    const policy = DEFAULT_POLICY;
    const base = cases(policy.evidenceHorizonDays).filter((c) => c.cls === "STRUCTURED");
    const list: Array<Case & { transcriptState: TranscriptState; kind: SpanKind; seq: number | null }> = [];
    for (const c of base)
      for (const transcriptState of ["VERBATIM", "PRESERVED", "RECLAIMED", "RECLAIMED_HONEST"] as const)
        for (const kind of ["TOOL_CALL", "SUMMARY"] as const)
          for (const seq of [3, null]) list.push({ ...c, transcriptState, kind, seq });
    const rows = list.map((c, i) => {
      const expires = copiedExpiry(c);
      return Prisma.sql`(${i}::int, ${c.transcriptState}::"TranscriptState", ${c.kind}::"SpanKind", ${c.seq}::int, ${c.hasPointer}::boolean,
        ${c.state}::"OriginalState", ${expires ? sqlTime(expires) : Prisma.sql`null::timestamp`})`;
    });
    const judged = await db().$queryRaw<Array<{ i: number; kept: boolean; queried: boolean; by_clock: boolean }>>`
      select x.i, custodian_span_unchecked(x.transcript_state, x.kind, x.seq, x.has_pointer, x.original_state) as kept,
             (${replacedInTranscript("x")} and ${goneWhateverTheClock("x")}) as queried,
             coalesce(${replacedInTranscript("x")} and ${heldPastTtl("x", now)}, false) as by_clock
        from (values ${Prisma.join(rows)}) as x(i, transcript_state, kind, seq, has_pointer, original_state, original_expires_at)
       order by x.i`;
    expect(judged).toHaveLength(list.length);
    for (const row of judged) {
      const c = list[row.i]!;
      const o = original(c);
      const span: QuestionSpan = {
        id: "s",
        sessionId: "x",
        seq: c.seq ?? 0,
        kind: c.kind,
        class: c.cls,
        transcriptState: c.transcriptState,
        provenance: provenanceStatus({ hasPointer: c.hasPointer, original: o, occurredAt: c.occurredAt }, policy, now),
        originalRetrievable: isRetrievable(o, now),
        atoms: [],
        sha256: "",
      };
      const label = `case ${JSON.stringify(c)}`;
      // Summaries and spans out of sequence are counted elsewhere; the rest are unchecked when the engine cannot check them.
      const expected = c.kind !== "SUMMARY" && c.seq !== null && !isCheckable(span);
      expect(row.kept, label).toBe(row.queried);
      expect(row.kept || row.by_clock, label).toBe(expected);
    }
  });
});
