/**
 * The replaced spans of an indexed evidence question that cannot be checked, and so may block a
 * proof of absence. There can be hundreds of thousands of them, yet an answer keeps only its first
 * blockers (the window) and counts the rest: the database counts them per session, with the
 * engine's blocking rule spelled in SQL, and sends only the rows the window can hold, each then
 * judged by the engine for its blocker.
 */
import { Prisma } from "@/lib/db/generated/client";
import type { KindCount } from "@/lib/evidence/manifest";
import {
  blockingClasses,
  judgeSpan,
  relevantOmissions,
  type Blocker,
  type CompiledPredicate,
  type QuestionSpan,
} from "@/lib/evidence/questions";
import { goneWhateverTheClock, heldPastTtl, replacedInTranscript } from "@/lib/server/provenance";
import { inSessions, inTime, type Scope } from "./scope";
import type { RunQuery } from "./stream";

/**
 * Replaced spans that cannot be checked now, in two parts each read through its own partial index:
 * no pointer or original not held (span_unchecked_idx), or a held original whose TTL has passed
 * and that the sweeper has not yet deleted (span_reclaimed_expiry_idx).
 */
export function uncheckedParts(now: Date): [gone: Prisma.Sql, expired: Prisma.Sql] {
  const replaced = replacedInTranscript("s");
  return [Prisma.sql`${replaced} and ${goneWhateverTheClock("s")}`, Prisma.sql`${replaced} and ${heldPastTtl("s", now)}`];
}

/**
 * uncheckableBlocker in SQL: an unchecked span blocks when its class can hold a match, unless an
 * honest summary replaced it and its manifest dropped no atom of a kind that matters for that
 * class. Null when no class can block.
 */
export function blocksSql(predicates: readonly CompiledPredicate[]): Prisma.Sql | null {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return null;
  return Prisma.sql`(${Prisma.join(
    classes.map(
      (cls) => Prisma.sql`(s.class = ${cls}::"EvidentialClass" and (s.transcript_state <> 'RECLAIMED_HONEST' or exists (
          select 1 from jsonb_array_elements(coalesce(s.replaced_dropped, '[]'::jsonb)) d
           where (d ->> 'count')::numeric > 0 and d ->> 'kind' = any(${relevantOmissions(predicates, cls)}::text[]))))`,
    ),
    " or ",
  )})`;
}

/** For EXPLAIN and for counting: the blocking unchecked spans in scope, per session. */
export function uncheckedCountQuery(predicates: readonly CompiledPredicate[], scope: Scope, now: Date): Prisma.Sql | null {
  const blocks = blocksSql(predicates);
  if (!blocks) return null;
  const part = (condition: Prisma.Sql) => Prisma.sql`
    select s.session_id, count(*) as n from span s
     where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} and ${blocks}
     group by s.session_id`;
  const [gone, expired] = uncheckedParts(now);
  return Prisma.sql`
    select u.session_id::text as session_id, sum(u.n)::int as n
      from (${part(gone)} union all ${part(expired)}) u
     group by u.session_id`;
}

const CLASS_CODES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
const STATE_CODES = ["VERBATIM", "RECLAIMED", "RECLAIMED_HONEST", "PRESERVED"] as const;
const ORIGINAL_CODES = ["ABSENT", "DELETED", "HASH_MISMATCH", "HELD"] as const;

/** An enum column as its index in `values` (comparing enums is cheap; printing them is not). */
function enumCode(column: string, values: readonly string[]): Prisma.Sql {
  return Prisma.raw(`(case ${column} ${values.map((v, i) => `when '${v}' then '${i}'`).join(" ")} end)`);
}

/**
 * Everything the engine's verdict on an unchecked span reads (class, transcript state, pointer,
 * the original's state, what an honest summary dropped), packed as one text: spans alike in it
 * get the same verdict but for their names.
 */
const FACTS = Prisma.sql`concat_ws(chr(31), ${enumCode("s.class", CLASS_CODES)}, ${enumCode("s.transcript_state", STATE_CODES)},
  case when s.has_pointer then 't' else 'f' end, ${enumCode("s.original_state", ORIGINAL_CODES)},
  case when s.transcript_state = 'RECLAIMED_HONEST' then coalesce(s.replaced_dropped, '[]'::jsonb)::text else '' end)`;

/**
 * For EXPLAIN and for reading: the first `limit` blocking unchecked spans by seq of each session
 * named, with the facts their verdict reads. A session's first blockers by seq are the only ones
 * of it the window can hold.
 */
export function uncheckedRowsQuery(
  predicates: readonly CompiledPredicate[],
  scope: Scope,
  now: Date,
  wanted: Array<{ sessionId: string; limit: number }>,
): Prisma.Sql | null {
  const keys = Prisma.sql`(select unnest(${wanted.map((w) => w.sessionId)}::uuid[]) as session_id,
    unnest(${wanted.map((w) => w.limit)}::int[]) as lim) as k`;
  const first = firstUncheckedRows(predicates, scope, now, keys, Math.max(0, ...wanted.map((w) => w.limit)));
  return first && Prisma.sql`select x.session_id, x.id, x.seq, x.facts from ${first} x`;
}

/**
 * The first `k.lim` blocking unchecked spans by seq of each session `k.session_id` of `keys` (a
 * FROM item naming them as k(session_id, lim)), as a FROM item of rows (session_id, id, seq,
 * facts) in text; null when no class can block.
 */
export function firstUncheckedRows(
  predicates: readonly CompiledPredicate[],
  scope: Scope,
  now: Date,
  keys: Prisma.Sql,
  cap: number,
): Prisma.Sql | null {
  const blocks = blocksSql(predicates);
  if (!blocks) return null;
  const part = (condition: Prisma.Sql) => Prisma.sql`
    select s.id, s.seq, ${FACTS} as facts from span s
     where s.session_id = se.id and ${inTime("s", scope)} and ${condition} and ${blocks}`;
  const [gone, expired] = uncheckedParts(now);
  // Joined laterally from the session row, at most `cap` (no key's lim is larger) and then k.lim:
  // Citus pushes a lateral join down only from a table distributed like span, and with a LIMIT that
  // names no column of the keys. On one node only the last session to fill the window reads more.
  return Prisma.sql`(
    select k.session_id::text as session_id, x.id::text as id, x.seq, x.facts
      from ${keys}
      join session se on se.id = k.session_id
     cross join lateral (
       select u.id, u.seq, u.facts, row_number() over (order by u.seq) as place
         from (${part(gone)} union all ${part(expired)}) u order by u.seq limit ${Math.min(cap, 2_147_483_647)}::int
     ) x
     where x.place <= k.lim)`;
}

/** An unchecked span read for its blocker: its facts packed as FACTS packs them. */
export interface UncheckedRow {
  session_id: string;
  id: string;
  seq: number;
  facts: string;
}

/** Verdicts remembered by the facts they rest on, at most this many at once. */
const REMEMBERED_VERDICTS = 10_000;

/** The blocking unchecked spans of the scope, counted per session (empty when no class can block). */
export async function countUnchecked(
  query: RunQuery,
  predicates: readonly CompiledPredicate[],
  scope: Scope,
  now: Date,
): Promise<Map<string, number>> {
  const countQuery = uncheckedCountQuery(predicates, scope, now);
  if (!countQuery) return new Map();
  return new Map((await query<{ session_id: string; n: number }>(countQuery)).map((r) => [r.session_id, r.n]));
}

/**
 * The first blocking unchecked spans by seq of each session named (as many as `wanted` says), each
 * one's blocker handed to `emit`.
 */
export async function readUnchecked(
  query: RunQuery,
  predicates: CompiledPredicate[],
  scope: Scope,
  now: Date,
  wanted: Array<{ sessionId: string; limit: number }>,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (blocker: Blocker) => void,
): Promise<void> {
  if (wanted.length === 0) return;
  judgeUnchecked(await query<UncheckedRow>(uncheckedRowsQuery(predicates, scope, now, wanted)!), predicates, cwdOf, emit);
}

/** Each unchecked span's blocker, judged by the engine once per set of facts, handed to `emit`. */
export function judgeUnchecked(
  rows: readonly UncheckedRow[],
  predicates: CompiledPredicate[],
  cwdOf: (sessionId: string) => string | undefined,
  emit: (blocker: Blocker) => void,
): void {
  const verdicts = new Map<string, Blocker | null>();
  for (const { session_id: sessionId, id: spanId, seq, facts } of rows) {
    let t = verdicts.get(facts);
    if (t === undefined) {
      if (verdicts.size >= REMEMBERED_VERDICTS) verdicts.clear();
      t = judgeUncheckedSpan(sessionId, spanId, seq, facts.split("\x1f"), predicates, cwdOf);
      verdicts.set(facts, t);
    }
    // The SQL counted it as blocking: the engine must agree, or every count would be wrong.
    if (!t) throw new Error(`The engine finds unchecked span ${spanId} not blocking where the count query does`);
    // The dropped counts are shared by the group's blockers: read, never changed.
    emit({ ...t, sessionId, spanId, seq });
  }
}

/**
 * The engine's verdict on one unchecked span from its packed facts, naming the span in the
 * blocker. Unchecked means not retrievable now: without a pointer its status is NONE; with one,
 * its original is gone, damaged or past its TTL, so LOST. A held original (past its TTL) can still
 * be pinned back, which the blocker says. An unchecked span only ever blocks, whatever its call's
 * outcome.
 */
function judgeUncheckedSpan(
  sessionId: string,
  id: string,
  seq: number,
  facts: string[],
  predicates: CompiledPredicate[],
  cwdOf: (sessionId: string) => string | undefined,
): Blocker | null {
  const [cls, state, pointer, original, dropped] = facts as [string, string, string, string, string];
  const transcriptState = STATE_CODES[Number(state)]!;
  const span: QuestionSpan = {
    id,
    sessionId,
    seq,
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
