/**
 * The summaries of an indexed evidence question. A summary blocks a proof of absence when its text
 * claims what the question asks and some original below it cannot be checked (unbackedClaim in
 * the engine). Each span is replaced at most once, so what lies below a summary is found by
 * following replacing summaries upward from the replaced spans that weaken them, which indexes
 * list, instead of walking every summary's lineage down; only the texts of summaries that turn
 * out unbacked are read, and the engine decides whether they claim anything.
 */
import { db, sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { blockingClasses, judgeSpan, type CompiledPredicate, type QuestionSpan } from "@/lib/evidence/questions";
import type { Atom, RetentionPolicy } from "@/lib/evidence/types";
import { atomCondition, hasSpanLevelConditions } from "./candidates";
import {
  atomsBySpan,
  inSessions,
  inTimeRange,
  keyOf,
  orderedAtoms,
  placed,
  questionSpan,
  SPAN_FACTS,
  spanKeys,
  type Judged,
  type Scope,
  type SpanFactsRow,
} from "./scope";
import { ATOM_FIELDS, type AtomRow } from "@/lib/server/atoms";
import { goneWhateverTheClock, heldPastTtl } from "@/lib/server/provenance";
import { spanStatusOf } from "@/lib/server/provenance";

export async function judgeSummaries(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<Judged[]> {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return [];
  const graph = await summaryGraph(scope, now);
  const judged = [...graph.nodes.values()].filter(
    (n) => n.in_list && classes.includes(n.class) && inTimeRange(scope, n.occurred_at) && !graph.backed(n.id),
  );
  if (judged.length === 0) return [];
  const [atoms, statuses] = await Promise.all([claimAtoms(predicates, judged), graph.statuses(judged.map((n) => n.id))]);
  const out: Judged[] = [];
  for (const node of judged) {
    const seq = node.seq ?? node.first_child_seq!;
    const provenance = statuses.get(node.id) ?? (await spanStatusOf(db(), node.session_id, node.id, policy, now));
    // Unbacked, so with no lineage to walk the engine's own check finds nothing backing it either.
    const span: QuestionSpan = {
      ...questionSpan(node, seq, policy, now, { atoms: atoms.get(keyOf(node.session_id, node.id)) ?? [] }),
      provenance,
    };
    const verdict = judgeSpan(span, predicates, cwdOf(node.session_id), new Map());
    if (verdict.blocker) out.push(placed(node, seq, node.seq !== null, [], verdict.blocker));
  }
  return out;
}

interface SummaryRow extends SpanFactsRow {
  /** The summary that replaced this one, if any. */
  parent: string | null;
  has_links: boolean;
  /** The lowest seq among the spans it replaced: where a summary without its own seq sits. */
  first_child_seq: number | null;
  /** It replaced an evidence-bearing span that cannot be checked, or one the engine cannot see. */
  bad_below: boolean;
}

interface SummaryNode extends SummaryRow {
  /** The engine sees it: it has a seq, its own or its first replaced span's. */
  in_list: boolean;
}

/** Every summary of the sessions in scope, with what the spans it replaced directly say about it. */
export function summariesQuery(scope: Scope): Prisma.Sql {
  // Each condition on replaced spans is a probe of one index: "weak" ones (no pointer, or the
  // original not held) are span_replaced_weak_idx, whose predicate the repeated clause names.
  const weak = Prisma.sql`c.session_id = s.session_id and c.replacing_summary_id = s.id and c.kind <> 'SUMMARY' and ${goneWhateverTheClock("c")}`;
  return Prisma.sql`
    select ${SPAN_FACTS}, s.replacing_summary_id::text as parent,
           first.found is not null as has_links, first.seq as first_child_seq,
           exists (select 1 from span c where ${weak} and (c.seq is null or (c.class <> 'NARRATIVE' and c.transcript_state not in ('VERBATIM', 'PRESERVED'))))
             or exists (select 1 from span c where c.session_id = s.session_id and c.replacing_summary_id = s.id and c.kind <> 'SUMMARY' and c.seq is null) as bad_below
      from span s
      -- The first span it replaced, by seq: whether it replaced any (a span is replaced at most
      -- once, so this is whether it has links), and where it sits without a seq of its own.
      left join lateral (select true as found, c.seq from span c
                          where c.session_id = s.session_id and c.replacing_summary_id = s.id
                          order by c.seq asc nulls last limit 1) first on true
     where ${inSessions("s", scope)} and s.kind = 'SUMMARY'`;
}

/**
 * The graph of summaries in scope, and per summary:
 * - backed (isBacked in the engine): it has links, and nothing below it is missing from the
 *   engine's view or cannot be checked while evidence-bearing;
 * - statuses (the weakest below it, spanStatuses) when that is NONE or LOST, as it always is for
 *   an unbacked summary but for the rarest shapes; null otherwise. Read only for the summaries
 *   asked about and those below them.
 */
async function summaryGraph(scope: Scope, now: Date) {
  const [rows, expired] = await Promise.all([
    sqlRows<SummaryRow>(summariesQuery(scope)),
    // Replaced spans whose held original's TTL has passed (not yet swept): few, found by expiry.
    sqlRows<{ summary_id: string; bad: boolean }>(Prisma.sql`
      select s.replacing_summary_id::text as summary_id,
             bool_or(s.seq is null or (s.class <> 'NARRATIVE' and s.transcript_state not in ('VERBATIM', 'PRESERVED'))) as bad
        from span s
       where ${inSessions("s", scope)} and s.replacing_summary_id is not null and s.kind <> 'SUMMARY'
         and ${heldPastTtl("s", now)}
       group by s.replacing_summary_id`),
  ]);
  const nodes = new Map<string, SummaryNode>(
    rows.map((n) => [n.id, { ...n, in_list: n.seq !== null || n.first_child_seq !== null }]),
  );
  const parent = (id: string) => nodes.get(id)?.parent ?? null;
  // A mark climbs from a summary to every summary above it; `stopAt` leaves a summary out of
  // what is below itself, should the links lead back round to it.
  const climb = (from: string | null, marks: Set<string>, stopAt?: string) => {
    const seen = new Set<string>();
    for (let id = from; id !== null && !seen.has(id) && id !== stopAt; id = parent(id)) {
      seen.add(id);
      marks.add(id);
    }
  };
  const tainted = new Set<string>();
  const expiredBelow = new Set<string>();
  for (const node of nodes.values()) {
    if (node.bad_below) climb(node.id, tainted);
    // Below another summary, one without links or that the engine cannot see leaves it unbacked.
    if (!node.has_links || !node.in_list) climb(node.parent, tainted, node.id);
  }
  for (const e of expired) {
    expiredBelow.add(e.summary_id);
    if (e.bad) climb(e.summary_id, tainted);
  }
  const cycles = new Set(onCycles(nodes));
  const children = new Map<string, string[]>();
  for (const node of nodes.values()) if (node.parent) children.set(node.parent, [...(children.get(node.parent) ?? []), node.id]);
  const below = (id: string): string[] => {
    const out: string[] = [];
    const todo = [id];
    const seen = new Set<string>();
    while (todo.length > 0) {
      const next = todo.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      out.push(next);
      todo.push(...(children.get(next) ?? []));
    }
    return out;
  };

  const statuses = async (ids: string[]): Promise<Map<string, "NONE" | "LOST" | null>> => {
    const lineages = new Map(ids.map((id) => [id, below(id)]));
    const closure = [...new Set([...lineages.values()].flat())].map((id) => nodes.get(id)!);
    const flags =
      closure.length === 0
        ? []
        : await sqlRows<{ id: string; none_below: boolean; lost_below: boolean }>(weakBelowQuery(closure));
    const none = new Set(flags.filter((f) => f.none_below).map((f) => f.id));
    const lost = new Set(flags.filter((f) => f.lost_below).map((f) => f.id));
    // No pointer below, no links, or a circle of links: NONE; else an original gone below: LOST.
    return new Map(
      [...lineages].map(([id, lineage]) => [
        id,
        lineage.some((n) => none.has(n) || !nodes.get(n)!.has_links || cycles.has(n))
          ? "NONE"
          : lineage.some((n) => lost.has(n) || expiredBelow.has(n))
            ? "LOST"
            : null,
      ]),
    );
  };
  return { nodes, backed: (id: string) => nodes.get(id)!.has_links && !tainted.has(id), statuses };
}

/** Whether summaries replaced a span without a pointer (on it or on the link), or one with a pointer to an original not held. */
function weakBelowQuery(summaries: SpanFactsRow[]): Prisma.Sql {
  const weak = Prisma.sql`c.session_id = s.session_id and c.replacing_summary_id = s.id and c.kind <> 'SUMMARY' and ${goneWhateverTheClock("c")}`;
  return Prisma.sql`
    select s.id::text as id,
           exists (select 1 from span c where ${weak} and not c.has_pointer)
             or exists (select 1 from summary_link l where l.session_id = s.session_id and l.summary_span_id = s.id and l.pointer_sha256 is null) as none_below,
           exists (select 1 from span c where ${weak} and c.has_pointer) as lost_below
      from ${spanKeys(summaries)} join span s on s.session_id = k.session_id and s.id = k.span_id`;
}

/** Summaries on a cycle of replacing links. */
function onCycles(nodes: ReadonlyMap<string, { parent: string | null }>): string[] {
  const state = new Map<string, "open" | "done">();
  const out: string[] = [];
  for (const start of nodes.keys()) {
    const path: string[] = [];
    let id: string | null = start;
    while (id !== null && nodes.has(id) && !state.has(id)) {
      state.set(id, "open");
      path.push(id);
      id = nodes.get(id)!.parent;
    }
    if (id !== null && state.get(id) === "open") out.push(...path.slice(path.indexOf(id)));
    for (const p of path) state.set(p, "done");
  }
  return out;
}

/**
 * The atoms of these summaries' texts that decide whether they claim anything. A predicate judged
 * by kind alone (no values to test) needs one fitting atom, and a summary it claims for needs
 * nothing else; for the rest, every atom in the predicates' ranges, and tool calls and commands
 * when a predicate looks at them.
 */
async function claimAtoms(predicates: CompiledPredicate[], summaries: SpanFactsRow[]): Promise<Map<string, Atom[]>> {
  const byKind = (p: CompiledPredicate) => !p.valuePrefixes && !p.excludePrefixes && !p.valueRegex && !p.outsideCwd;
  const sufficient = predicates.filter((p) => byKind(p) && !hasSpanLevelConditions(p));
  const rows: AtomRow[] = [];
  let open = summaries;
  for (const p of sufficient) {
    if (open.length === 0) break;
    const found = await firstAtoms(open, p);
    rows.push(...found);
    const claimed = new Set(found.map((r) => keyOf(r.session_id, r.span_id)));
    open = open.filter((s) => !claimed.has(keyOf(s.session_id, s.id)));
  }
  if (open.length > 0) {
    const rest = predicates.filter((p) => !sufficient.includes(p));
    const wide = [
      ...rest
        .filter((p) => !byKind(p))
        .map((p) => Prisma.sql`(${atomCondition("a", p, { asClaim: true, prefixesAsFilter: true })})`),
      ...(rest.some(hasSpanLevelConditions) ? [Prisma.sql`a.kind in ('COMMAND', 'TOOL_CALL')`] : []),
    ];
    const queries: Array<Promise<AtomRow[]>> = rest.filter(byKind).map((p) => firstAtoms(open, p));
    if (wide.length > 0) {
      queries.push(
        sqlRows<AtomRow>(Prisma.sql`
          select ${ATOM_FIELDS} from ${spanKeys(open)} join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id
           where ${Prisma.join(wide, " or ")}`),
      );
    }
    rows.push(...(await Promise.all(queries)).flat());
  }
  return new Map([...atomsBySpan(rows)].map(([key, atoms]) => [key, orderedAtoms(atoms)]));
}

/**
 * Per summary, its first atom that could claim for the predicate (judged by kind alone). Laterally
 * from the summary's span row: Citus pushes a lateral join down only from a table distributed like
 * evidence_atom.
 */
function firstAtoms(summaries: SpanFactsRow[], p: CompiledPredicate): Promise<AtomRow[]> {
  return sqlRows<AtomRow>(Prisma.sql`
    select ${ATOM_FIELDS} from ${spanKeys(summaries)}
      join span sp on sp.session_id = k.session_id and sp.id = k.span_id
     cross join lateral (select * from evidence_atom a
                          where a.session_id = sp.session_id and a.span_id = sp.id and ${atomCondition("a", p, { asClaim: true, prefixesAsFilter: true })}
                          order by a.ordinal limit 1) a`);
}
