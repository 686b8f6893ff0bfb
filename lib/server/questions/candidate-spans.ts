/**
 * The checkable spans with atoms some predicate could match, which may cite: found by the atom
 * indexes, narrowed by the literals a command pattern requires, then judged with their facts.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { judgeSpan, matchAtom, spanQualifies, type CompiledPredicate } from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { atomCondition, regexNarrowing } from "./candidates";
import {
  ATOM_FIELDS,
  atomsBySpan,
  inSessions,
  inTime,
  keyOf,
  orderedAtoms,
  placed,
  questionSpan,
  SPAN_FACTS,
  spanKeys,
  type AtomRow,
  type Judged,
  type Scope,
  type SpanFactsRow,
} from "./scope";
import { retrievableWithPointer } from "@/lib/server/provenance";

/**
 * For EXPLAIN and for finding candidates: atoms in scope the predicate could match.
 *
 * A predicate on commands also needs a command of the span that could match its pattern. A span
 * is dropped here when the candidates hold all of its commands (counted in the commands index
 * alone) and none contains a literal the pattern requires; the rest come with their count of
 * commands, so the ones still to read are known.
 */
export function candidateAtomsQuery(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  const candidates = Prisma.sql`select ${ATOM_FIELDS} from evidence_atom a where ${inSessions("a", scope)} and ${atomCondition("a", p)}`;
  if (!p.commandRegex) return candidates;
  const narrowing = regexNarrowing("c", p.commandRegex) ?? Prisma.sql`true`;
  return Prisma.sql`
    with candidate as materialized (
      select a.session_id, a.span_id, a.ordinal, a.kind, a.text, a.normalized, a.byte_start, a.byte_end, a.effect, a.negated, a.arg_name
        from evidence_atom a where ${inSessions("a", scope)} and ${atomCondition("a", p)}
    ),
    spans as materialized (
      select c.session_id, c.span_id,
             bool_or(c.kind = 'COMMAND' and not c.negated and ${narrowing}) as could_match,
             count(*) filter (where c.kind = 'COMMAND') as held
        from candidate c group by c.session_id, c.span_id
    ),
    kept as materialized (
      select s.session_id, s.span_id,
             (select count(*) from evidence_atom x where x.session_id = s.session_id and x.span_id = s.span_id and x.kind = 'COMMAND')::int as commands,
             s.could_match, s.held
        from spans s
    )
    select ${ATOM_FIELDS}, k.commands as span_commands
      from candidate a join kept k on k.session_id = a.session_id and k.span_id = a.span_id
     where k.could_match or k.held < k.commands`;
}

/**
 * Checkable spans with an atom some predicate could match, which the engine judges for citations.
 * Candidates come from the atom indexes; a span goes on only if some predicate holds for one of
 * its candidate atoms and for its tool name and commands (spanQualifies, matchAtom), and the
 * engine then judges it with every atom any predicate could match plus its tool calls and
 * commands (all its verdict reads) and cuts the cited bytes from the original, hashed again.
 * Originals found damaged, which the engine then cites without bytes, are returned to be recorded.
 */
export async function judgeCandidates(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<{ judged: Judged[]; damaged: Array<{ sessionId: string; spanId: string }> }> {
  // Every predicate's candidates, merged by span: what the engine finally judges each span with.
  const atoms = new Map<string, Map<number, AtomRow>>();
  const merge = (bySpan: Map<string, Map<number, AtomRow>>) => {
    for (const [key, own] of bySpan) {
      const all = atoms.get(key);
      if (!all) atoms.set(key, new Map(own));
      else for (const [ordinal, row] of own) all.set(ordinal, row);
    }
  };
  // A span's facts and bytes are fetched as soon as one predicate holds for it, while the other
  // predicates' candidates are still being found.
  const requested = new Set<string>();
  const facts: Array<Promise<FactsRow[]>> = [];
  const fetchFacts = (spans: Array<{ session_id: string; id: string }>) => {
    const fresh = spans.filter((s) => !requested.has(keyOf(s.session_id, s.id)));
    for (const s of fresh) requested.add(keyOf(s.session_id, s.id));
    if (fresh.length > 0) facts.push(db().$queryRaw<FactsRow[]>(factsQuery(fresh, scope, now)));
  };

  await Promise.all(
    predicates.map(async (p) => {
      const rows = await db().$queryRaw<Array<AtomRow & { span_commands?: number }>>(candidateAtomsQuery(p, scope));
      const own = atomsBySpan(rows);
      const toolNames = await fetchSpanLevel(p, rows, own);
      merge(own);
      // The outcome is a fact of the span row, judged with the facts below.
      const withoutOutcomes = { ...p, outcomes: null };
      // The engine's tests on what this predicate needs: its candidates, and the span's tool calls,
      // commands and tool name; a span it could cite or leave undecidable goes on.
      const hits: Array<{ session_id: string; id: string }> = [];
      for (const [key, rowsOfSpan] of own) {
        const [sessionId, spanId] = key.split("/") as [string, string];
        const list = orderedAtoms(rowsOfSpan);
        const toolName = toolNames.get(key);
        const cwd = cwdOf(sessionId);
        if (
          spanQualifies(withoutOutcomes, { atoms: list, ...(toolName ? { toolName } : {}) }) &&
          list.some((a) => matchAtom(p, a, cwd) !== "NO_MATCH")
        ) {
          hits.push({ session_id: sessionId, id: spanId });
        }
      }
      fetchFacts(hits);
    }),
  );

  const judged: Judged[] = [];
  const damaged: Array<{ sessionId: string; spanId: string }> = [];
  for (const row of (await Promise.all(facts)).flat()) {
    if (row.intact === false) damaged.push({ sessionId: row.session_id, spanId: row.id });
    const span = questionSpan(row, row.seq!, policy, now, {
      atoms: orderedAtoms(atoms.get(keyOf(row.session_id, row.id))),
      ...(row.body !== null ? { body: new Uint8Array(Buffer.from(row.body, "base64")) } : {}),
    });
    const verdict = judgeSpan(span, predicates, cwdOf(row.session_id), new Map());
    if (verdict.blocker || verdict.citations.length > 0)
      judged.push(placed(row, row.seq!, true, verdict.citations, verdict.blocker));
  }
  return { judged, damaged };
}

/**
 * For a predicate on commands or tool names, what its candidate spans still need: their commands
 * where the candidates do not already hold all of them, their tool calls, and their tool names.
 * The atoms are added to `own`; the tool names are returned.
 */
async function fetchSpanLevel(
  p: CompiledPredicate,
  rows: Array<AtomRow & { span_commands?: number }>,
  own: Map<string, Map<number, AtomRow>>,
): Promise<Map<string, string | null>> {
  const toolNames = new Map<string, string | null>();
  if (!p.commandRegex && !p.toolNames) return toolNames;
  const commandKeys = new Map<string, { session_id: string; id: string }>();
  const toolKeys = new Map<string, { session_id: string; id: string }>();
  for (const row of rows) {
    const key = keyOf(row.session_id, row.span_id);
    const span = { session_id: row.session_id, id: row.span_id };
    if (p.commandRegex) {
      const held = [...own.get(key)!.values()].filter((a) => a.kind === "COMMAND").length;
      if (held < (row.span_commands ?? 0)) commandKeys.set(key, span);
    }
    if (p.toolNames) toolKeys.set(key, span);
  }
  const levelQuery = (keys: Map<string, { session_id: string; id: string }>, kind: "COMMAND" | "TOOL_CALL") =>
    keys.size === 0
      ? Promise.resolve([] as AtomRow[])
      : db().$queryRaw<AtomRow[]>`
          select ${ATOM_FIELDS} from ${spanKeys([...keys.values()])} join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id
           where a.kind = ${kind}::"AtomKind"`;
  const [commandAtoms, toolAtoms, names] = await Promise.all([
    levelQuery(commandKeys, "COMMAND"),
    levelQuery(toolKeys, "TOOL_CALL"),
    toolKeys.size > 0
      ? db().$queryRaw<Array<{ session_id: string; id: string; tool_name: string | null }>>`
          select s.session_id::text as session_id, s.id::text as id, s.tool_name
            from ${spanKeys([...toolKeys.values()])} join span s on s.session_id = k.session_id and s.id = k.span_id`
      : Promise.resolve([]),
  ]);
  for (const row of [...commandAtoms, ...toolAtoms]) own.get(keyOf(row.session_id, row.span_id))!.set(row.ordinal, row);
  for (const row of names) toolNames.set(keyOf(row.session_id, row.id), row.tool_name);
  return toolNames;
}

type FactsRow = SpanFactsRow & { intact: boolean | null; body: string | null };

/**
 * Checkable spans' facts, each with its original's bytes when they still hash to the span's
 * sha256: the engine cuts the cited bytes from them. Raw queries cannot return bytea here: the
 * bytes travel as base64.
 */
function factsQuery(spans: Array<{ session_id: string; id: string }>, scope: Scope, now: Date): Prisma.Sql {
  return Prisma.sql`
    select ${SPAN_FACTS}, v.intact, case when v.intact then encode(o.bytes, 'base64') end as body
      from ${spanKeys(spans)} join span s on s.session_id = k.session_id and s.id = k.span_id
      left join span_original o on o.session_id = s.session_id and o.span_id = s.id
      cross join lateral (select case when o.bytes is not null then encode(sha256(o.bytes), 'hex') = s.sha256 end as intact) v
     where s.kind <> 'SUMMARY' and s.seq is not null and ${inTime("s", scope)}
       and (s.transcript_state in ('VERBATIM', 'PRESERVED') or ${retrievableWithPointer("s", now)})`;
}
