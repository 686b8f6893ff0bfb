/**
 * The checkable spans with atoms some predicate could match, which may cite: found by the atom
 * indexes (candidate-sql.ts), narrowed by the literals a command pattern requires, then judged
 * with their facts.
 */
import { Prisma } from "@/lib/db/generated/client";
import { type CompiledPredicate, judgeSpan, matchAtom, spanQualifies } from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { sqlRows } from "@/lib/db/client";
import { type CandidateRow, candidateSources, type FactsRow, factsQuery, ordered, unknownToolAtomsQuery } from "./candidate-sql";
import { atomsBySpan, keyOf, orderedAtoms, placed, questionSpan, spanKeys, type Judged, type Scope } from "./scope";
import { ATOM_FIELDS, type AtomRow } from "@/lib/server/atoms";
import type { UnknownCandidates } from "./unknown-blockers";
import { groupsOf, sideBySide, withCursors, type Cursor, type RunQuery } from "./stream";

/** Spans judged at a time: their candidate atoms, facts and original bytes are all the memory a batch takes. */
export const BATCH_SPANS = 500;

/**
 * Candidate rows a predicate may bring in one statement. Most questions find fewer: they are read
 * at once, every predicate's statement on a connection of its own and batches judged side by
 * side; a predicate with more is read through cursors instead, a few thousand rows at a time.
 */
export const CANDIDATE_ROWS_AT_ONCE = 20_000;

/** Batches judged side by side when every candidate is already read (each takes a connection). */
export const BATCHES_AT_ONCE = 3;

type Batch = Array<Array<CandidateRow[] | undefined>>;

/**
 * Checkable spans with an atom some predicate could match, which the engine judges for citations.
 * Candidates come from the atom indexes; a span goes on only if some predicate holds for one of
 * its candidate atoms and for its tool name and commands (spanQualifies, matchAtom), and the
 * engine then judges it with every atom any predicate could match plus its tool calls and
 * commands (all its verdict reads), from its facts alone: the bytes of the citations an answer
 * keeps are cut afterwards (citedBytes).
 *
 * Each predicate's candidates come ordered by span, are merged span by span, and judged
 * `batchSpans` spans at a time; each judged span is handed to `emit` and let go. Up to
 * CANDIDATE_ROWS_AT_ONCE a predicate, they are read in one statement without a transaction; past
 * it, through cursors on one connection in one read-only transaction (withCursors), whose
 * statements all run there.
 */
export async function judgeCandidates(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (judged: Judged) => void,
  options: {
    batchSpans?: number;
    rowsAtOnce?: number;
    onProgress?: (spans: number) => void;
    /**
     * The atoms of the unknown tools' calls some predicate could match (when such calls matter),
     * found with the counted blockers (unknown-blockers.ts).
     */
    unknownCandidates?: Promise<UnknownCandidates>;
  } = {},
): Promise<void> {
  const batchSpans = options.batchSpans ?? BATCH_SPANS;
  const atOnce = options.rowsAtOnce ?? CANDIDATE_ROWS_AT_ONCE;
  const sources = candidateSources(predicates, scope);
  const unknownMatters = sources.length > predicates.length;
  // Read at once, the unknown tools' calls are judged after the predicates' candidates: the spans
  // judged (as many as the candidates read at once, at most) are remembered, and each one's facts
  // bring its calls' atoms. Through cursors, they come as one more source, merged with the others.
  let judgedSpans: Set<string> | null = null;
  let seen = 0;
  const judge = async (query: RunQuery, batch: Batch) => {
    await judgeBatch(query, predicates, batch, scope, policy, now, cwdOf, emit, judgedSpans);
    seen += batch.length;
    options.onProgress?.(seen);
  };
  const pooled: RunQuery = async <R>(sql: Prisma.Sql) => (await sqlRows(sql)) as R[];
  const limit = Prisma.sql` limit ${atOnce + 1}`;
  const firsts = await Promise.all(
    sources.slice(0, predicates.length).map((source) => pooled<CandidateRow>(Prisma.sql`${ordered(source)}${limit}`)),
  );
  if (firsts.every((rows) => rows.length <= atOnce)) {
    // The predicates' candidates are judged at once, beside the counted blockers' statement: their
    // facts bring each span's unknown tool calls' atoms, so that statement is not waited for.
    const judged = new Set<string>();
    if (unknownMatters) judgedSpans = judged;
    await judgeSideBySide(
      mergeBySpan(
        firsts.map((rows) => groupsOf(readOnce(rows), (row) => keyOf(row.session_id, row.span_id))),
        batchSpans,
      ),
      (batch) => judge(pooled, batch),
    );
    if (unknownMatters) await judgeUnknownCallsLeft(predicates, scope, firsts, judged, batchSpans, options, pooled, judge);
    return;
  }
  firsts.length = 0; // let them go: the cursors read them again
  // The unknown tools' calls come through a cursor of their own here; the counted blockers'
  // statement ends first, as no statement of the question may wait on this transaction.
  if (unknownMatters) await options.unknownCandidates;
  await withCursors(async (open, query) => {
    // One connection: cursors are opened, and read, one statement at a time.
    const streams: Array<AsyncGenerator<{ key: string; rows: CandidateRow[] }>> = [];
    for (const source of sources) {
      const cursor = await open<CandidateRow>(ordered(source));
      streams.push(groupsOf(cursor, (row) => keyOf(row.session_id, row.span_id)));
    }
    for await (const batch of mergeBySpan(streams, batchSpans)) await judge(query, batch);
  });
}

/** Batches judged BATCHES_AT_ONCE at a time (each on a connection of its own). */
function judgeSideBySide(batches: AsyncGenerator<Batch>, judge: (batch: Batch) => Promise<void>): Promise<void> {
  return sideBySide(batches, BATCHES_AT_ONCE, judge);
}

/**
 * The unknown tools' calls some predicate could match that the predicates' candidates did not
 * bring to judgement (their candidate atoms did not qualify, or narrowing left them out): judged
 * now, each with its candidate rows of every predicate and its unknown call's atoms, exactly as
 * if they had been merged with the others. They come with the counted blockers, or through a
 * cursor when there are more than a statement may bring at once.
 */
async function judgeUnknownCallsLeft(
  predicates: CompiledPredicate[],
  scope: Scope,
  firsts: CandidateRow[][],
  judgedSpans: ReadonlySet<string>,
  batchSpans: number,
  options: { unknownCandidates?: Promise<UnknownCandidates> },
  pooled: RunQuery,
  judge: (query: RunQuery, batch: Batch) => Promise<void>,
): Promise<void> {
  const unknown = (await options.unknownCandidates) ?? null;
  // Each left span's rows of every predicate, found once the left spans are known.
  let candidateRows: Map<string, Array<CandidateRow[] | undefined>> | null = null;
  const rowsOf = (key: string, calls: CandidateRow[]): Array<CandidateRow[] | undefined> => {
    candidateRows ??= candidateRowsBySpan(firsts, judgedSpans);
    return [...(candidateRows.get(key) ?? predicates.map(() => undefined)), calls];
  };
  const left = async function* (groups: AsyncGenerator<{ key: string; rows: CandidateRow[] }>) {
    let batch: Batch = [];
    for await (const { key, rows } of groups) {
      if (judgedSpans.has(key)) continue;
      batch.push(rowsOf(key, rows));
      if (batch.length >= batchSpans) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  };
  if (unknown !== null) {
    const groups = groupsOf(readOnce(unknown), (row) => keyOf(row.session_id, row.span_id));
    await judgeSideBySide(left(groups), (batch) => judge(pooled, batch));
    return;
  }
  await withCursors(async (open, query) => {
    const cursor = await open<CandidateRow>(ordered(unknownToolAtomsQuery(predicates, scope)));
    for await (const batch of left(groupsOf(cursor, (row) => keyOf(row.session_id, row.span_id)))) await judge(query, batch);
  });
}

/** The candidate rows of each predicate of the spans not judged, by span. */
function candidateRowsBySpan(
  firsts: CandidateRow[][],
  judgedSpans: ReadonlySet<string>,
): Map<string, Array<CandidateRow[] | undefined>> {
  const out = new Map<string, Array<CandidateRow[] | undefined>>();
  firsts.forEach((rows, i) => {
    for (const row of rows) {
      const key = keyOf(row.session_id, row.span_id);
      if (judgedSpans.has(key)) continue;
      let slots = out.get(key);
      if (!slots) out.set(key, (slots = firsts.map(() => undefined)));
      (slots[i] ??= []).push(row);
    }
  });
  return out;
}

/** Rows already read, as a cursor that hands them over once. */
function readOnce<R>(rows: R[]): Cursor<R> {
  let done = false;
  return {
    async next() {
      if (done) return [];
      done = true;
      return rows;
    },
  };
}

/**
 * Every predicate's candidates, each ordered by span, merged span by span into batches of
 * `batchSpans` spans (per span, each predicate's rows of it), yielded in turn.
 */
async function* mergeBySpan(
  streams: Array<AsyncGenerator<{ key: string; rows: CandidateRow[] }>>,
  batchSpans: number,
): AsyncGenerator<Batch> {
  const heads: Array<IteratorResult<{ key: string; rows: CandidateRow[] }>> = [];
  for (const stream of streams) heads.push(await stream.next());
  let batch: Batch = [];
  for (;;) {
    // The next span in order among every predicate's candidates, with each one's rows of it.
    let next: string | undefined;
    for (const head of heads) if (!head.done && (next === undefined || head.value.key < next)) next = head.value.key;
    if (next === undefined) break;
    const rows: Array<CandidateRow[] | undefined> = [];
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!;
      if (!head.done && head.value.key === next) {
        rows.push(head.value.rows);
        heads[i] = await streams[i]!.next();
      } else rows.push(undefined);
    }
    batch.push(rows);
    if (batch.length >= batchSpans) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * One batch of candidate spans (per span, each source's candidate rows of it: every predicate's,
 * then unknown tools' calls), judged.
 */
async function judgeBatch(
  query: RunQuery,
  predicates: CompiledPredicate[],
  batch: Batch,
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
  emit: (judged: Judged) => void,
  /** Where given, every span judged is added, and its facts bring its unknown tools' calls' atoms to judge it with. */
  judgedSpans: Set<string> | null,
): Promise<void> {
  // Every predicate's candidates, merged by span: what the engine finally judges each span with.
  const atoms = new Map<string, Map<number, AtomRow>>();
  const merge = (bySpan: Map<string, Map<number, AtomRow>>) => {
    for (const [key, own] of bySpan) {
      const all = atoms.get(key);
      if (!all) atoms.set(key, new Map(own));
      else for (const [ordinal, row] of own) all.set(ordinal, row);
    }
  };
  const hits = new Map<string, { session_id: string; id: string }>();
  const hit = (key: string, sessionId: string, spanId: string) => {
    if (!hits.has(key)) hits.set(key, { session_id: sessionId, id: spanId });
  };
  await Promise.all(
    predicates.map(async (p, i) => {
      const all = batch.flatMap((spans) => spans[i] ?? []);
      if (all.length === 0) return;
      // A call of the tool asked about is cited whole: the engine needs only its facts.
      for (const row of all) if (row.whole_call) hit(keyOf(row.session_id, row.span_id), row.session_id, row.span_id);
      const rows = all.filter((row) => !row.whole_call);
      if (rows.length === 0) return;
      const own = atomsBySpan(rows);
      const toolNames = await fetchSpanLevel(query, p, rows, own);
      merge(own);
      // The outcome is a fact of the span row, judged with the facts below.
      const withoutOutcomes = { ...p, outcomes: null };
      // The engine's tests on what this predicate needs: its candidates, and the span's tool calls,
      // commands and tool name; a span it could cite or leave undecidable goes on.
      for (const [key, rowsOfSpan] of own) {
        const [sessionId, spanId] = key.split("/") as [string, string];
        const list = orderedAtoms(rowsOfSpan);
        const toolName = toolNames.get(key);
        const cwd = cwdOf(sessionId);
        const qualifies =
          spanQualifies(withoutOutcomes, { atoms: list, ...(toolName ? { toolName } : {}) }) &&
          list.some((a) => matchAtom(p, a, cwd) !== "NO_MATCH");
        if (qualifies) hit(key, sessionId, spanId);
      }
    }),
  );
  // Calls of tools whose effects are not known, which the engine may find blocking
  // (questions/unknown-effects.ts): judged with the rest.
  const unknown = batch.flatMap((spans) => spans[predicates.length] ?? []);
  if (unknown.length > 0) {
    const own = atomsBySpan(unknown);
    merge(own);
    // Every row of this source is such a call's atom (unknownToolCondition).
    for (const key of own.keys()) {
      const [sessionId, spanId] = key.split("/") as [string, string];
      hit(key, sessionId, spanId);
    }
  }
  if (hits.size === 0) return;
  if (judgedSpans) for (const key of hits.keys()) judgedSpans.add(key);
  for (const row of await query<FactsRow>(factsQuery([...hits.values()], scope, now, judgedSpans !== null))) {
    if (row.unknown_atoms) merge(atomsBySpan(row.unknown_atoms));
    // Without its body: the citations the answer keeps get their bytes afterwards (citedBytes).
    const span = questionSpan(row, row.seq!, policy, now, { atoms: orderedAtoms(atoms.get(keyOf(row.session_id, row.id))) });
    const verdict = judgeSpan(span, predicates, cwdOf(row.session_id), new Map());
    if (verdict.blocker || verdict.citations.length > 0) emit(placed(row, row.seq!, true, verdict.citations, verdict.blocker));
  }
}

/**
 * For a predicate on tool names, what its candidate spans still need: their tool calls, added to
 * `own`, and their tool names, returned. (A predicate on commands has its spans' commands among
 * its candidates: candidateAtomsQuery.)
 */
async function fetchSpanLevel(
  query: RunQuery,
  p: CompiledPredicate,
  rows: AtomRow[],
  own: Map<string, Map<number, AtomRow>>,
): Promise<Map<string, string | null>> {
  const toolNames = new Map<string, string | null>();
  if (!p.toolNames) return toolNames;
  const keys = new Map<string, { session_id: string; id: string }>();
  for (const row of rows) keys.set(keyOf(row.session_id, row.span_id), { session_id: row.session_id, id: row.span_id });
  const spans = spanKeys([...keys.values()]);
  const [toolAtoms, names] = await Promise.all([
    query<AtomRow>(Prisma.sql`
      select ${ATOM_FIELDS} from ${spans} join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id
       where a.kind = 'TOOL_CALL'`),
    query<{ session_id: string; id: string; tool_name: string | null }>(Prisma.sql`
      select s.session_id::text as session_id, s.id::text as id, s.tool_name
        from ${spans} join span s on s.session_id = k.session_id and s.id = k.span_id`),
  ]);
  for (const row of toolAtoms) own.get(keyOf(row.session_id, row.span_id))!.set(row.ordinal, row);
  for (const row of names) toolNames.set(keyOf(row.session_id, row.id), row.tool_name);
  return toolNames;
}
