/**
 * Calls of tools whose effects are not known that block a side-effect question and that no
 * predicate could cite (no atom of theirs meets any predicate's candidate condition, nor is the
 * call one of a tool asked about). There can be thousands of them, yet each one's verdict is the
 * same "may have done anything" blocker: the database counts them per session, with the engine's
 * rule (unknownToolBlocks) spelled in SQL, and sends only those the answer's window can hold, each
 * then judged by the engine.
 *
 * The other unknown tools' calls, those with an atom some predicate could match, are candidates:
 * judgeCandidates reads them and the engine judges them whole (they may cite, or block for
 * another reason).
 */
import { Prisma } from "@/lib/db/generated/client";
import { judgeSpan, type Blocker, type CompiledPredicate, unknownToolsCanBlock } from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { parseUtcTimestamp } from "@/lib/db/pg-pool";
import { atomCondition, unknownToolCondition } from "./candidates";
import {
  atomsBySpan,
  checkableNow,
  inSessions,
  inTime,
  keyOf,
  orderedAtoms,
  questionSpan,
  type Scope,
  type ScopeSessionRow,
  type SpanFactsRow,
} from "./scope";
import { ATOM_COLUMNS, type AtomRow } from "@/lib/server/atoms";
import { firstUncheckedRows, judgeUnchecked, uncheckedCountQuery, type UncheckedRow } from "./unchecked";
import type { RunQuery } from "./stream";

/**
 * The atoms of the unknown tools' calls that some predicate could also match (those the engine
 * judges whole with the candidates), in the candidates' order (session, span, ordinal); null when
 * there are more than a statement may bring at once: the candidates then read them themselves.
 */
export type UnknownCandidates = AtomRow[] | null;

/**
 * unknownToolBlocks in SQL, for a span `s` holding an unknown tool's call: some predicate it can
 * block asks for no outcome, or for the call's, or the call's outcome is unknown or in doubt
 * (outcomeInDoubt). Null when no predicate can be blocked by one.
 */
export function unknownBlocksSql(predicates: readonly CompiledPredicate[]): Prisma.Sql | null {
  const blocked = predicates.filter(unknownToolsCanBlock);
  if (blocked.length === 0) return null;
  if (blocked.some((p) => p.outcomes === null)) return Prisma.sql`true`;
  const outcomes = [...new Set(blocked.flatMap((p) => [...p.outcomes!]))];
  return Prisma.sql`(s.outcome is null or s.outcome::text = any(${outcomes}::text[]) or s.outcome = 'UNKNOWN' or (s.outcome = 'FAILED' and s.exit_code = 0))`;
}

/**
 * The span (`sessionId`, `spanId`: its columns; `span`: an alias of its span row, needed only for
 * predicates asking whether a tool was called) is a candidate of some predicate: an atom of it
 * meets a predicate's candidate condition (atomCondition, a superset of what the engine could
 * match), or it is a call of a tool asked about.
 */
export function candidateSpanSql(
  predicates: readonly CompiledPredicate[],
  at: { sessionId: string; spanId: string; span: () => string },
): Prisma.Sql {
  // An atom without an effect makes "effect = any(...)" null, not false, and the rest of the
  // condition (value ranges on paths below the home directory) would be worked out for nothing.
  const guarded = (p: CompiledPredicate) =>
    p.effects
      ? Prisma.sql`(c.effect is not null and ${atomCondition("c", p, PROBE)})`
      : Prisma.sql`(${atomCondition("c", p, PROBE)})`;
  const anyAtom = Prisma.sql`exists (select 1 from evidence_atom c where c.session_id = ${Prisma.raw(at.sessionId)} and c.span_id = ${Prisma.raw(at.spanId)} and (${Prisma.join(
    predicates.map(guarded),
    " or ",
  )}))`;
  // The index-only test first (the cheaper, as PostgreSQL orders them too): atoms are read only past it.
  const atoms = Prisma.sql`(${someEffectSql(predicates, at)} and ${anyAtom})`;
  const names = [...new Set(predicates.filter((p) => p.wholeCall).flatMap((p) => [...p.toolNames!]))];
  if (names.length === 0) return atoms;
  const s = at.span();
  return Prisma.sql`(${atoms} or exists (select 1 from span ${Prisma.raw(s)} where ${Prisma.raw(`${s}.session_id = ${at.sessionId} and ${s}.id = ${at.spanId}`)}
                                        and ${Prisma.raw(s)}.kind = 'TOOL_CALL' and lower(${Prisma.raw(s)}.tool_name collate "C") = any(${names}::text[])))`;
}

/**
 * When every predicate asks for effects: the span has an atom of one of them (not negated, unless
 * some predicate counts negated atoms), which every atom a predicate could match is. Answered from
 * evidence_atom_span_effect_idx alone, it spares most spans the read of their atoms that the full
 * condition needs: a call of a tool whose effects are not known has one effect atom, its own.
 */
function someEffectSql(predicates: readonly CompiledPredicate[], at: { sessionId: string; spanId: string }): Prisma.Sql {
  if (!predicates.every((p) => p.effects)) return Prisma.sql`true`;
  const effects = [...new Set(predicates.flatMap((p) => [...p.effects!]))];
  const negated = predicates.some((p) => p.includeNegated) ? Prisma.empty : Prisma.sql` and not e.negated`;
  return Prisma.sql`exists (select 1 from evidence_atom e where e.session_id = ${Prisma.raw(at.sessionId)} and e.span_id = ${Prisma.raw(at.spanId)}
                            and e.effect = any(${effects}::"SideEffectKind"[])${negated})`;
}

/** An evidence_atom row of `alias` as JSON with AtomRow's fields, for statements that bring atoms nested in other rows. */
export function atomJson(alias: string): Prisma.Sql {
  const a = alias;
  return Prisma.raw(`json_build_object('session_id', ${a}.session_id, 'span_id', ${a}.span_id, 'ordinal', ${a}.ordinal, 'kind', ${a}.kind,
    'text', ${a}.text, 'normalized', ${a}.normalized, 'byte_start', ${a}.byte_start, 'byte_end', ${a}.byte_end, 'effect', ${a}.effect,
    'negated', ${a}.negated, 'arg_name', ${a}.arg_name)`);
}

/** A span's atoms are found by its key: the prefixes only filter them. */
const PROBE = { prefixesAsFilter: true } as const;

const NO_COUNTS = Prisma.sql`select null::text as session_id, 0 as n where false`;

/**
 * For EXPLAIN and for reading: one statement that counts, per session, the unknown tools' calls no
 * predicate could match and the unchecked spans that block (uncheckedCountQuery), which share the
 * window; reads the facts of the first of both kinds by seq of each session, as many as the window
 * (`window`) can hold after the counted blockers of the sessions before it (in the order of
 * `sessionIds`); and the atoms of the other calls, which the engine judges with the candidates
 * (up to `atOnce` of them, and how many there are). The calls are read once, with the facts their
 * count needs, from the partial index of them (span.unknown_call); everything comes as JSON. Null
 * when no predicate can be blocked by such a call.
 */
export function countedBlockersQuery(
  predicates: readonly CompiledPredicate[],
  scope: Scope,
  now: Date,
  sessionIds: string[],
  window: number,
  atOnce: number,
): Prisma.Sql | null {
  const blocks = unknownBlocksSql(predicates);
  if (!blocks) return null;
  // An export asks with no window (Infinity), which SQL's int cannot hold: the largest int can.
  const room = Math.min(window, 2_147_483_647);
  // Times as text, read as UTC in readCountedBlockers as the pool reads a timestamp column.
  const facts = Prisma.sql`json_build_object('session_id', s.session_id, 'id', s.id, 'seq', s.seq, 'kind', s.kind, 'class', s.class,
    'transcript_state', s.transcript_state, 'occurred_at', s.occurred_at::text, 'has_pointer', s.has_pointer,
    'original_state', s.original_state, 'original_expires_at', s.original_expires_at::text, 'sha256', s.sha256,
    'tool_name', s.tool_name, 'outcome', s.outcome, 'exit_code', s.exit_code, 'byte_length', s.byte_length,
    'atoms', (select json_agg(${atomJson("a")} order by a.ordinal) from evidence_atom a
               where a.session_id = s.session_id and a.span_id = s.id and ${unknownToolCondition("a")}))`;
  // The first unchecked spans of each session, as many as the room its earlier sessions leave in
  // the window (both kinds counted) and its own count allow.
  const firstUnchecked =
    firstUncheckedRows(predicates, scope, now, Prisma.sql`unchecked_keys k`, room) ??
    Prisma.sql`(select null::text as session_id, null::text as id, null::int as seq, null::text as facts where false)`;
  // Each call's own atoms are probed by its key: the cost grows with the calls, not with every
  // atom in scope that some predicate could match (which the candidates' statements read anyway).
  // Probed where the calls are read from span, not over a CTE of them: Citus pushes a correlated
  // subquery down to the shards only from a distributed table joined on session_id.
  const matched = candidateSpanSql(predicates, { sessionId: "s.session_id", spanId: "s.id", span: () => "n" });
  return Prisma.sql`
    with unchecked as (${uncheckedCountQuery(predicates, scope, now) ?? NO_COUNTS}),
    judged as materialized (
      select s.session_id, s.id as span_id, s.seq, s.kind, s.transcript_state, s.has_pointer, s.original_state, s.original_expires_at,
             s.occurred_at, s.outcome, s.exit_code, ${matched} as matched
        from span s where ${inSessions("s", scope)} and s.unknown_call
    ),
    decided as materialized (
      select s.session_id, s.span_id as id, s.seq from judged s
       where not s.matched and ${checkableNow("s", now)} and ${inTime("s", scope)} and ${blocks}
    ),
    known as (select d.session_id, count(*)::int as n from decided d group by d.session_id),
    ordered as (
      select k.ord, k.session_id, coalesce(kn.n, 0) as n, coalesce(u.n, 0) as u
        from unnest(${sessionIds}::uuid[]) with ordinality as k(session_id, ord)
        left join known kn on kn.session_id = k.session_id
        left join unchecked u on u.session_id = k.session_id::text
    ),
    room as (
      select o.session_id, ${room}::int - coalesce(sum(o.n + o.u) over (order by o.ord rows between unbounded preceding and 1 preceding), 0) as room
        from ordered o
    ),
    chosen as materialized (
      select d.session_id, d.id
        from (select d.*, row_number() over (partition by d.session_id order by d.seq) as place from decided d) d
        join room r on r.session_id = d.session_id
       where d.place <= r.room
    ),
    -- Materialized, so that each session's first unchecked spans are read once per session that
    -- has room for them: planned within the lateral join, a few hundred misestimated rows of these
    -- sessions were joined against every session's room for each session (a million rows, 0.8 s).
    unchecked_keys as materialized (
      select r.session_id, least(u.n, r.room)::int as lim from room r join unchecked u on u.session_id = r.session_id::text
       where r.room > 0
    ),
    first_unchecked as (
      select f.* from ${firstUnchecked} f
    ),
    overlap as (
      select ${ATOM_COLUMNS}
        from judged j join evidence_atom a on a.session_id = j.session_id and a.span_id = j.span_id
       where j.matched and ${unknownToolCondition("a")}
    )
    select (select coalesce(json_agg(json_build_array(kn.session_id, kn.n)), '[]') from known kn) as unknown,
           (select coalesce(json_agg(json_build_array(u.session_id, u.n)), '[]') from unchecked u) as unchecked,
           (select coalesce(json_agg(json_build_object('session_id', f.session_id, 'id', f.id, 'seq', f.seq, 'facts', f.facts)), '[]')
              from first_unchecked f) as unchecked_rows,
           (select coalesce(json_agg(${facts}), '[]') from chosen c join span s on s.session_id = c.session_id and s.id = c.id) as spans,
           (select count(*)::int from overlap) as overlap_count,
           (select coalesce(json_agg(${atomJson("o")} order by o.session_id, o.span_id, o.ordinal), '[]')
              from (select * from overlap limit ${atOnce + 1}) o) as overlap`;
}

type FactsJson = Omit<SpanFactsRow, "occurred_at" | "original_expires_at"> & {
  occurred_at: string;
  original_expires_at: string | null;
  atoms: AtomRow[] | null;
};

/**
 * Counts the calls of tools whose effects are not known that no predicate could match, and the
 * unchecked spans that block, per session; hands the blocker of each of those the window can hold
 * to `emit`; and returns the atoms of the other calls for the candidates (null: more than
 * `atOnce`). Null when no predicate can be blocked by such a call.
 */
export async function readCountedBlockers(
  query: RunQuery,
  predicates: CompiledPredicate[],
  sessions: ScopeSessionRow[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  window: number,
  atOnce: number,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (blocker: Blocker) => void,
): Promise<{ unknown: Map<string, number>; unchecked: Map<string, number>; candidates: UnknownCandidates } | null> {
  const sql = countedBlockersQuery(
    predicates,
    scope,
    now,
    sessions.map((s) => s.id),
    window,
    atOnce,
  );
  if (!sql) return null;
  const [row] = await query<{
    unknown: Array<[string, number]>;
    unchecked: Array<[string, number]>;
    unchecked_rows: UncheckedRow[];
    spans: FactsJson[];
    overlap_count: number;
    overlap: AtomRow[];
  }>(sql);
  for (const facts of row!.spans) {
    const spanRow: SpanFactsRow = {
      ...facts,
      occurred_at: parseUtcTimestamp(facts.occurred_at),
      original_expires_at: facts.original_expires_at === null ? null : parseUtcTimestamp(facts.original_expires_at),
    };
    const span = questionSpan(spanRow, facts.seq!, policy, now, {
      atoms: orderedAtoms(atomsBySpan(facts.atoms ?? []).get(keyOf(facts.session_id, facts.id))),
    });
    const verdict = judgeSpan(span, predicates, cwdOf(facts.session_id), new Map());
    // The SQL counted it as blocking and citing nothing: the engine must agree, or every count would be wrong.
    if (!verdict.blocker || verdict.citations.length > 0 || !verdict.blocker.unknownEffect)
      throw new Error(`The engine judges unknown tool call ${facts.id} otherwise than the count query does`);
    emit(verdict.blocker);
  }
  judgeUnchecked(row!.unchecked_rows, predicates, cwdOf, emit);
  return {
    unknown: new Map(row!.unknown),
    unchecked: new Map(row!.unchecked),
    candidates: row!.overlap_count > atOnce ? null : row!.overlap,
  };
}
