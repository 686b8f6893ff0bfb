/**
 * The statements that find a question's candidates and read their facts: the atoms each predicate
 * could match (by the value indexes, or by session for a few sessions), the unknown tools' calls
 * some predicate could match, and the facts, bytes and unknown calls' atoms of the spans judged.
 */
import { Prisma } from "@/lib/db/generated/client";
import type { CompiledPredicate } from "@/lib/evidence/questions";
import { regexNarrowing, unknownToolCondition, unknownToolsMatter } from "./candidates";
import {
  candidatesInSessions,
  checkableNow,
  inSessions,
  inTime,
  SPAN_FACTS,
  spanKeys,
  type Scope,
  type SpanFactsRow,
} from "./scope";
import { ATOM_COLUMNS, ATOM_FIELDS, type AtomRow } from "@/lib/server/atoms";
import { atomJson, candidateSpanSql } from "./unknown-blockers";
import { atomsInScopeFrom } from "./candidate-ranges";

/**
 * For EXPLAIN and for finding candidates: atoms in scope the predicate could match.
 *
 * A predicate on commands also needs a command of the span that could match its pattern. A span
 * is dropped here when the candidates hold all of its commands (counted in the commands index
 * alone) and none contains a literal the pattern requires. A span kept whose candidates lack some
 * of its commands comes with the others as well, which the engine judges it with: read here, in
 * the statement, not by another after it. (Joins, not a subquery per span: Citus plans no
 * correlated subquery over a CTE. A span without commands has no row in kept and was not wanted:
 * neither could it match nor does it hold fewer commands than it has.)
 */
export function candidateAtomsQuery(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  if (p.wholeCall) return callCandidatesQuery(p, scope);
  const candidates = Prisma.sql`select ${ATOM_FIELDS} from ${atomsInScopeFrom(p, scope)}`;
  if (!p.commandRegex) return candidates;
  const narrowing = regexNarrowing("c", p.commandRegex) ?? Prisma.sql`true`;
  return Prisma.sql`
    with candidate as materialized (
      select ${ATOM_COLUMNS} from ${atomsInScopeFrom(p, scope)}
    ),
    spans as materialized (
      select c.session_id, c.span_id,
             bool_or(c.kind = 'COMMAND' and not c.negated and ${narrowing}) as could_match,
             count(*) filter (where c.kind = 'COMMAND') as held
        from candidate c group by c.session_id, c.span_id
    ),
    kept as materialized (
      select s.session_id, s.span_id, s.could_match, s.held < count(*) as lacks_commands
        from spans s
        join evidence_atom x on x.session_id = s.session_id and x.span_id = s.span_id and x.kind = 'COMMAND'
       group by s.session_id, s.span_id, s.could_match, s.held
    )
    select ${ATOM_FIELDS} from (
      select ${ATOM_COLUMNS} from candidate a join kept k on k.session_id = a.session_id and k.span_id = a.span_id
       where k.could_match or k.lacks_commands
      union -- a command among the candidates once
      select ${ATOM_COLUMNS} from kept k
        join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id and a.kind = 'COMMAND'
       where k.lacks_commands
    ) a`;
}

/**
 * For a predicate that asks whether a tool was called: the TOOL_CALL spans of the tool, by its name
 * (index span_tool_call_name_idx, under the engine's ASCII case folding), each as one row with no
 * atom (`whole_call`); and the TOOL_CALL atoms that could name it, for calls inside messages.
 */
function callCandidatesQuery(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  const names = [...p.toolNames!];
  return Prisma.sql`
    select ${ATOM_FIELDS}, a.whole_call from (
      select ${ATOM_COLUMNS}, false as whole_call
        from ${atomsInScopeFrom(p, scope)}
      union all
      select s.session_id, s.id, null, null, null, null, null, null, null, null, null, true
        from span s
       where ${inSessions("s", scope)} and s.kind = 'TOOL_CALL' and lower(s.tool_name collate "C") = any(${names}::text[])
    ) a`;
}

/**
 * For EXPLAIN and for finding candidates through cursors: the atoms in scope of calls of tools
 * whose effects are not known, of spans some predicate could also match (candidateSpanSql), which
 * the engine judges with every predicate. The others only ever block, and the database counts them
 * (unknown-blockers.ts, which also finds these when they are few enough to read at once).
 */
export function unknownToolAtomsQuery(predicates: readonly CompiledPredicate[], scope: Scope): Prisma.Sql {
  return Prisma.sql`select ${ATOM_FIELDS} from evidence_atom a where ${candidatesInSessions("a", scope)} and ${unknownToolCondition("a")}
    and ${candidateSpanSql(predicates, { sessionId: "a.session_id", spanId: "a.span_id", span: () => "n" })}`;
}

/** What each candidate statement reads: every predicate's candidates, then unknown tools' calls if they matter. */
export function candidateSources(predicates: readonly CompiledPredicate[], scope: Scope): Prisma.Sql[] {
  const sources = predicates.map((p) => candidateAtomsQuery(p, scope));
  if (unknownToolsMatter(predicates)) sources.push(unknownToolAtomsQuery(predicates, scope));
  return sources;
}

/** An atom some predicate could match, or (`whole_call`, no atom) a call of a tool asked about. */
export type CandidateRow = AtomRow & { whole_call?: boolean };

export const ordered = (source: Prisma.Sql) => Prisma.sql`${source} order by a.session_id, a.span_id, a.ordinal`;

export type FactsRow = SpanFactsRow & { unknown_atoms?: AtomRow[] | null };

/**
 * Checkable spans' facts, which the engine judges them by: no bytes, which only the citations an
 * answer keeps carry (citedBytesQuery), read once the answer knows which it keeps.
 */
export function factsQuery(
  spans: Array<{ session_id: string; id: string }>,
  scope: Scope,
  now: Date,
  unknownAtoms: boolean,
): Prisma.Sql {
  // A span's atoms lie together under the primary key: the unknown calls' among them cost a probe,
  // made only for the spans that hold such a call (span.unknown_call, kept by a trigger on atoms).
  const unknown = unknownAtoms
    ? Prisma.sql`, case when s.unknown_call then (select json_agg(${atomJson("u")}) from evidence_atom u
                     where u.session_id = s.session_id and u.span_id = s.id and ${unknownToolCondition("u")}) end as unknown_atoms`
    : Prisma.empty;
  return Prisma.sql`
    select ${SPAN_FACTS}${unknown}
      from ${spanKeys(spans)} join span s on s.session_id = k.session_id and s.id = k.span_id
     where ${checkableNow("s", now)} and ${inTime("s", scope)}`;
}

/**
 * The originals of cited spans, with whether each still hashes to its span's sha256 (`intact`),
 * and its bytes only then: a citation carries only bytes that hash right. Raw queries cannot
 * return bytea here: the bytes travel as base64.
 */
export function citedBytesQuery(spans: Array<{ session_id: string; id: string }>): Prisma.Sql {
  return Prisma.sql`
    select s.session_id::text as session_id, s.id::text as id, s.original_state::text as original_state, v.intact,
           case when v.intact then encode(o.bytes, 'base64') end as body
      from ${spanKeys(spans)} join span s on s.session_id = k.session_id and s.id = k.span_id
      join span_original o on o.session_id = s.session_id and o.span_id = s.id
      cross join lateral (select encode(sha256(o.bytes), 'hex') = s.sha256 as intact) v`;
}
