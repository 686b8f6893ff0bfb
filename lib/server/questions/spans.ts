/**
 * The non-summary spans of an indexed evidence question: the seq gaps and the number of spans
 * checked (from session counts), the replaced spans that cannot be checked and so may block, and
 * the checkable spans with atoms some predicate could match, which may cite.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { KindCount } from "@/lib/evidence/manifest";
import {
  blockingClasses,
  judgeSpan,
  type Blocker,
  type CompiledPredicate,
  type QuestionSpan,
  type SeqGap,
} from "@/lib/evidence/questions";
import type { EvidentialClass } from "@/lib/evidence/types";
import { inSessions, inTime, timed, type Scope, type ScopeSessionRow } from "./scope";
import { sqlTime } from "@/lib/server/provenance";
import { withCursors } from "./stream";

/** Replaced spans (not summaries) that the question engine sees: they have a seq. */
const REPLACED = Prisma.sql`s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') and s.kind <> 'SUMMARY' and s.seq is not null`;

/** Replaced spans that cannot be checked now: no pointer or original not held, or its TTL passed. */
export function uncheckedParts(now: Date): [gone: Prisma.Sql, expired: Prisma.Sql] {
  return [
    Prisma.sql`${REPLACED} and (not s.has_pointer or s.original_state <> 'HELD')`,
    Prisma.sql`${REPLACED} and s.has_pointer and s.original_state = 'HELD' and s.original_expires_at <= ${sqlTime(now)}`,
  ];
}

/**
 * Seq gaps (seqGaps in the engine, for sessions without a declared range: holes between the seqs
 * present), read only for sessions whose counts say they have one.
 */
export async function findGaps(sessions: ScopeSessionRow[]): Promise<SeqGap[]> {
  const holed = sessions.filter((s) => s.seq_count > 0 && s.seq_max! - s.seq_min! + 1 > s.seq_count).map((s) => s.id);
  if (holed.length === 0) return [];
  const rows = await db().$queryRaw<Array<{ session_id: string; from_seq: number; to_seq: number }>>`
    select session_id::text as session_id, seq + 1 as from_seq, next_seq - 1 as to_seq
      from (select session_id, seq, lead(seq) over (partition by session_id order by seq) as next_seq
              from span where session_id = any(${holed}::uuid[]) and seq is not null) x
     where next_seq > seq + 1
     order by session_id, seq`;
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .map((r): SeqGap => ({ sessionId: r.session_id, fromSeq: r.from_seq, toSeq: r.to_seq }))
    .sort((a, b) => order.get(a.sessionId)! - order.get(b.sessionId)! || a.fromSeq - b.fromSeq);
}

/**
 * Spans whose atoms are checked, per session: every span the engine sees in scope less the
 * replaced ones that cannot be checked. Without a time range both come from session counts, but
 * for originals past their TTL and not yet swept.
 */
export async function countChecked(sessions: ScopeSessionRow[], scope: Scope, now: Date): Promise<Map<string, number>> {
  const [gone, expired] = uncheckedParts(now);
  const counts = (rows: Array<{ session_id: string; n: number }>) => new Map(rows.map((r) => [r.session_id, r.n]));
  if (!timed(scope)) {
    const passed = counts(
      await db().$queryRaw`
      select s.session_id::text as session_id, count(*)::int as n from span s where ${inSessions("s", scope)} and ${expired} group by s.session_id`,
    );
    return new Map(sessions.map((s) => [s.id, s.non_summary_count - s.unchecked_count - (passed.get(s.id) ?? 0)]));
  }
  const perSession = (condition: Prisma.Sql) =>
    db().$queryRaw<Array<{ session_id: string; n: number }>>`
      select s.session_id::text as session_id, count(*)::int as n from span s
       where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} group by s.session_id`;
  const [total, goneCounts, expiredCounts] = (
    await Promise.all([perSession(Prisma.sql`s.kind <> 'SUMMARY' and s.seq is not null`), perSession(gone), perSession(expired)])
  ).map(counts) as [Map<string, number>, Map<string, number>, Map<string, number>];
  return new Map(
    sessions.map((s) => [s.id, (total.get(s.id) ?? 0) - (goneCounts.get(s.id) ?? 0) - (expiredCounts.get(s.id) ?? 0)]),
  );
}

/** For EXPLAIN: the count of unchecked spans in scope. */
export function uncheckedCountQuery(scope: Scope, now: Date): Prisma.Sql {
  const [gone, expired] = uncheckedParts(now);
  return Prisma.sql`
    select ((select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${gone})
          + (select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${expired}))::int as n`;
}

const CLASS_CODES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
const STATE_CODES = ["VERBATIM", "RECLAIMED", "RECLAIMED_HONEST", "PRESERVED"] as const;
const ORIGINAL_CODES = ["ABSENT", "DELETED", "HASH_MISMATCH", "HELD"] as const;

/** An enum column as its index in `values` (comparing enums is cheap; printing them is not). */
function enumCode(column: string, values: readonly string[]): Prisma.Sql {
  return Prisma.raw(`(case ${column} ${values.map((v, i) => `when '${v}' then '${i}'`).join(" ")} end)`);
}

/**
 * Replaced spans that cannot be checked, a row each: its identity and everything the engine's
 * verdict on such a span reads (class, transcript state, pointer, the original's state and whether
 * it could be retrieved now, what an honest summary dropped), enums as codes (comparing enums is
 * cheap; printing them is not). The unchecked-span index answers alone.
 */
export function uncheckedQuery(condition: Prisma.Sql, scope: Scope, classes: EvidentialClass[], now: Date): Prisma.Sql {
  return Prisma.sql`
    select s.session_id::text as session_id, s.id::text as id, s.seq,
           concat_ws(chr(31), ${enumCode("s.class", CLASS_CODES)}, ${enumCode("s.transcript_state", STATE_CODES)},
                     case when s.has_pointer then 't' else 'f' end, ${enumCode("s.original_state", ORIGINAL_CODES)},
                     case when s.original_expires_at is null or s.original_expires_at > ${sqlTime(now)} then 't' else 'f' end,
                     case when s.transcript_state = 'RECLAIMED_HONEST' then coalesce(s.replaced_dropped, '[]'::jsonb)::text else '' end) as facts
      from span s
     where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} and s.class = any(${classes}::"EvidentialClass"[])`;
}

/** Verdicts remembered by the facts they rest on, at most this many at once. */
const REMEMBERED_VERDICTS = 10_000;

/**
 * Replaced spans that cannot be checked and could hold a match: each blocker the engine finds
 * among them is handed to `emit` (in no particular order), read through cursors a batch at a time.
 */
export async function judgeUnchecked(
  predicates: CompiledPredicate[],
  scope: Scope,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (blocker: Blocker) => void,
): Promise<void> {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return;
  // Spans alike in every fact the verdict reads get the same verdict, but for their names.
  const verdicts = new Map<string, Blocker | null>();
  await withCursors(async (open) => {
    for (const condition of uncheckedParts(now)) {
      const cursor = await open<{ session_id: string; id: string; seq: number; facts: string }>(
        uncheckedQuery(condition, scope, classes, now),
      );
      for (let rows = await cursor.next(); rows.length > 0; rows = await cursor.next()) {
        for (const { session_id: sessionId, id: spanId, seq, facts } of rows) {
          let t = verdicts.get(facts);
          if (t === undefined) {
            if (verdicts.size >= REMEMBERED_VERDICTS) verdicts.clear();
            t = judgeUncheckedSpan([sessionId, spanId, String(seq), ...facts.split("\x1f")], predicates, cwdOf);
            verdicts.set(facts, t);
          }
          // The dropped counts are shared by the group's blockers: read, never changed.
          if (t) {
            emit({
              sessionId,
              spanId,
              seq,
              class: t.class,
              provenance: t.provenance,
              transcriptState: t.transcriptState,
              dropped: t.dropped,
              originalHeld: t.originalHeld,
              unblockBy: t.unblockBy,
              reason: t.reason,
            });
          }
        }
      }
    }
  });
}

/**
 * The engine's verdict on one packed span it cannot check, from the facts packed (the expiry flag,
 * packed for the query's own use, is not needed: an unchecked span is not retrievable either way),
 * naming the span in the blocker.
 */
function judgeUncheckedSpan(
  fields: string[],
  predicates: CompiledPredicate[],
  cwdOf: (sessionId: string) => string | undefined,
): Blocker | null {
  const [sessionId, id, seq, cls, state, pointer, original, , dropped] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const transcriptState = STATE_CODES[Number(state)]!;
  // Unchecked means not retrievable now: without a pointer its status is NONE; with one, its
  // original is gone, damaged or past its TTL, so LOST. A held original (past its TTL) can still be
  // pinned back, which the blocker says. An unchecked span only ever blocks, whatever its call's outcome.
  const span: QuestionSpan = {
    id,
    sessionId,
    seq: Number(seq),
    kind: "TOOL_CALL", // not a summary: the query excludes them
    class: CLASS_CODES[Number(cls)]!,
    transcriptState,
    provenance: pointer === "t" ? "LOST" : "NONE",
    originalRetrievable: false,
    originalHeld: ORIGINAL_CODES[Number(original)] === "HELD",
    atoms: [],
    sha256: "",
    ...(transcriptState === "RECLAIMED_HONEST" ? { droppedByManifest: JSON.parse(dropped) as KindCount[] } : {}),
  };
  return judgeSpan(span, predicates, cwdOf(sessionId), new Map()).blocker;
}
