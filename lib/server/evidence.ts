import { AppError } from "@/lib/api/errors";
import { isUuid } from "@/lib/api/ids";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { KindCount } from "@/lib/evidence/manifest";
import { isRetrievable, provenanceStatus } from "@/lib/evidence/provenance";
import {
  applyCannedOverrides,
  blockingClasses,
  cannedQuestionsFor,
  compileQuestion,
  concludeAnswer,
  isCannedQuestionId,
  judgeSpan,
  matchAtom,
  seqGaps,
  spanQualifies,
  validatePredicate,
  type Blocker,
  type CannedQuestionId,
  type Citation,
  type CompiledPredicate,
  type EvidencePredicate,
  type EvidenceQuestion,
  type QuestionAnswer,
  type QuestionSpan,
  type SeqGap,
} from "@/lib/evidence/questions";
import type { Atom, EvidentialClass, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { atomCondition, hasSpanLevelConditions } from "./evidence-candidates";
import { recordDamaged } from "./original-facts";
import { loadPolicy, loadQuestionOverrides } from "./policy";
import { originalFromSpan, retrievableWithPointer, sqlTime, type OriginalStateValue } from "./provenance-sql";
import { sha256Hex } from "./hash";
import { lineageStatuses } from "./span-status";

export interface EvidenceQueryInput {
  projectId: string;
  question: { canned: string } | { predicate: EvidencePredicate; title?: string };
  scope?: { sessionIds?: string[]; from?: Date; to?: Date };
}

export interface EvidenceQueryResult extends QuestionAnswer {
  question: EvidenceQuestion;
  sessionsInScope: number;
}

/**
 * Answers an evidence question over a project's sessions (or some of them), exactly as the pure
 * engine (answerQuestion) would over every span in scope, without loading every span: indexes find
 * the atoms that could match and the spans that could block, session counts give the seq gaps and
 * the number of spans checked, and the engine judges each span found (judgeSpan). Then the
 * verbatim bytes behind each citation are read and hashed again.
 */
export async function askEvidenceQuestion(input: EvidenceQueryInput, now = new Date()): Promise<EvidenceQueryResult> {
  const { question, policy, sessions, scope } = await prepare(input);
  let answer = await answerInScope(question, sessions, scope, policy, now);
  // Bytes damaged behind the database's back since they were last verified are recorded now;
  // asking again judges the spans that rested on them as they are.
  if (!(await attachCitedBytes(answer))) {
    answer = await answerInScope(question, sessions, scope, policy, now);
    await attachCitedBytes(answer);
  }
  return { ...answer, question, sessionsInScope: sessions.length };
}

async function prepare(input: EvidenceQueryInput) {
  const [policy, overrides] = await Promise.all([loadPolicy(db(), input.projectId), loadQuestionOverrides(db(), input.projectId)]);
  const question = resolveQuestion(input.question, applyCannedOverrides(cannedQuestionsFor(policy), overrides));
  const sessionIds = input.scope?.sessionIds;
  if (sessionIds?.some((id) => !isUuid(id))) throw new AppError("NOT_FOUND", "Session not found");
  const sessions = await db().$queryRaw<ScopeSessionRow[]>`
    select id::text as id, cwd, non_summary_count, seq_count, seq_min, seq_max
      from session
     where project_id = ${input.projectId}::uuid ${sessionIds ? Prisma.sql`and id = any(${sessionIds}::uuid[])` : Prisma.empty}
     order by created_at, id`;
  if (sessionIds && sessions.length !== new Set(sessionIds).size) throw new AppError("NOT_FOUND", "Session not found");
  const scope: Scope = {
    projectId: input.projectId,
    sessionIds: sessionIds ? sessions.map((s) => s.id) : null,
    from: input.scope?.from ?? null,
    to: input.scope?.to ?? null,
  };
  return { question, policy, sessions, scope };
}

/** The queries a question starts with, labelled, for EXPLAIN in the benchmark (the later ones depend on their results). */
export async function evidenceQueriesToExplain(input: EvidenceQueryInput, now = new Date()): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const { question, scope } = await prepare(input);
  const predicates = compileQuestion(question);
  const classes = blockingClasses(predicates);
  const [gone, expired] = uncheckedParts(now);
  return [
    ...predicates.map((p, i) => ({ label: `candidate atoms, predicate ${i + 1}`, sql: candidateAtomsQuery(p, scope) })),
    { label: "unchecked spans that could block (no pointer or original not held)", sql: uncheckedQuery(gone, scope, classes) },
    { label: "unchecked spans that could block (TTL passed)", sql: uncheckedQuery(expired, scope, classes) },
    { label: "unchecked span count", sql: uncheckedCountQuery(scope, now) },
    { label: "summaries that could claim", sql: summariesQuery(predicates, scope, classes) },
  ];
}

function resolveQuestion(question: EvidenceQueryInput["question"], canned: Record<CannedQuestionId, EvidenceQuestion>): EvidenceQuestion {
  if ("canned" in question) {
    if (!isCannedQuestionId(question.canned)) {
      throw new AppError("VALIDATION_FAILED", `Unknown canned question "${question.canned}"`, {
        fields: [{ path: "question.canned", message: "not a canned question" }],
      });
    }
    return canned[question.canned];
  }
  const problems = validatePredicate(question.predicate);
  if (problems.length > 0) {
    throw new AppError("VALIDATION_FAILED", "The question's predicate is not valid", {
      fields: problems.map((p) => ({ path: `question.predicate.${p.field}`, message: p.message })),
    });
  }
  return { id: "custom", title: question.title ?? "Custom question", anyOf: [question.predicate] };
}

interface ScopeSessionRow {
  id: string;
  cwd: string | null;
  non_summary_count: number;
  seq_count: number;
  seq_min: number | null;
  seq_max: number | null;
}

interface Scope {
  projectId: string;
  /** Null: every session of the project. */
  sessionIds: string[] | null;
  from: Date | null;
  to: Date | null;
}

interface SpanFactsRow {
  session_id: string;
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  transcript_state: TranscriptState;
  occurred_at: Date;
  has_pointer: boolean;
  original_state: OriginalStateValue;
  original_expires_at: Date | null;
  sha256: string;
  tool_name: string | null;
}

interface AtomRow {
  session_id: string;
  span_id: string;
  ordinal: number;
  kind: Atom["kind"];
  text: string;
  normalized: string;
  byte_start: number;
  byte_end: number;
  effect: Atom["effect"] | null;
  negated: boolean;
  arg_name: string | null;
}

const SPAN_FACTS = Prisma.sql`s.session_id::text as session_id, s.id::text as id, s.seq, s.kind::text as kind, s.class::text as class,
  s.transcript_state::text as transcript_state, s.occurred_at, s.has_pointer, s.original_state::text as original_state,
  s.original_expires_at, s.sha256, s.tool_name`;
const ATOM_FIELDS = Prisma.sql`a.session_id::text as session_id, a.span_id::text as span_id, a.ordinal, a.kind::text as kind, a.text, a.normalized,
  a.byte_start, a.byte_end, a.effect::text as effect, a.negated, a.arg_name`;

/** Rows of `alias` (with a session_id column) inside the scope's sessions. */
function inSessions(alias: string, scope: Scope): Prisma.Sql {
  const column = Prisma.raw(`${alias}.session_id`);
  return scope.sessionIds
    ? Prisma.sql`${column} = any(${scope.sessionIds}::uuid[])`
    : Prisma.sql`${column} in (select id from session where project_id = ${scope.projectId}::uuid)`;
}

/** Spans of `alias` inside the scope's time range (inclusive start, exclusive end). */
function inTime(alias: string, scope: Scope): Prisma.Sql {
  const column = Prisma.raw(`${alias}.occurred_at`);
  const parts: Prisma.Sql[] = [];
  if (scope.from) parts.push(Prisma.sql`${column} >= ${sqlTime(scope.from)}`);
  if (scope.to) parts.push(Prisma.sql`${column} < ${sqlTime(scope.to)}`);
  return parts.length > 0 ? Prisma.join(parts, " and ") : Prisma.sql`true`;
}

/** Replaced spans (not summaries) that the question engine sees: they have a seq. */
const REPLACED = Prisma.sql`s.transcript_state in ('RECLAIMED', 'RECLAIMED_HONEST') and s.kind <> 'SUMMARY' and s.seq is not null`;

/** Replaced spans that cannot be checked now: no pointer, original not held, or its TTL passed. */
function uncheckedParts(now: Date): [Prisma.Sql, Prisma.Sql] {
  return [
    Prisma.sql`${REPLACED} and (not s.has_pointer or s.original_state <> 'HELD')`,
    Prisma.sql`${REPLACED} and s.has_pointer and s.original_state = 'HELD' and s.original_expires_at <= ${sqlTime(now)}`,
  ];
}

/** A span as the question engine sees it, from its row (atoms added by the caller). */
function questionSpan(row: SpanFactsRow, seq: number, policy: RetentionPolicy, now: Date, extra: Partial<QuestionSpan> = {}): QuestionSpan {
  const original = originalFromSpan(row.original_state, row.original_expires_at);
  return {
    id: row.id,
    sessionId: row.session_id,
    seq,
    kind: row.kind,
    class: row.class,
    transcriptState: row.transcript_state,
    provenance: provenanceStatus({ hasPointer: row.has_pointer, original, occurredAt: row.occurred_at }, policy, now),
    originalRetrievable: isRetrievable(original, now),
    originalHeld: row.original_state === "HELD",
    atoms: [],
    sha256: row.sha256.trim(),
    ...(row.tool_name !== null ? { toolName: row.tool_name } : {}),
    occurredAt: row.occurred_at,
    ...extra,
  };
}

function toAtom(row: AtomRow): Atom {
  return {
    kind: row.kind,
    text: row.text,
    normalized: row.normalized,
    byteStart: row.byte_start,
    byteEnd: row.byte_end,
    ...(row.effect ? { effect: row.effect } : {}),
    ...(row.negated ? { negated: true } : {}),
    ...(row.arg_name ? { argName: row.arg_name } : {}),
  };
}

const keyOf = (sessionId: string, spanId: string) => `${sessionId}/${spanId}`;

/** A judged span, with where it sits in the engine's walk. */
interface Judged {
  session: string;
  seq: number;
  ownSeq: boolean;
  occurredAt: number;
  id: string;
  citations: Citation[];
  blocker: Blocker | null;
}

async function answerInScope(question: EvidenceQuestion, sessions: ScopeSessionRow[], scope: Scope, policy: RetentionPolicy, now: Date): Promise<QuestionAnswer> {
  const predicates = compileQuestion(question);
  const sessionIndex = new Map(sessions.map((s, i) => [s.id, i]));
  const cwdOf = (sessionId: string) => sessions[sessionIndex.get(sessionId)!]?.cwd ?? undefined;
  if (sessions.length === 0) return concludeAnswer([], [], 0, []);

  const [gaps, checkedSpans, blocking, citing, summaries] = await Promise.all([
    findGaps(sessions),
    countChecked(sessions, scope, now),
    judgeUnchecked(predicates, scope, policy, now, cwdOf),
    judgeCandidates(predicates, scope, policy, now, cwdOf),
    judgeSummaries(predicates, scope, policy, now, cwdOf),
  ]);
  // The engine's order: sessions as in scope, then seq; a summary without a seq of its own after
  // the span whose seq it takes, then by time.
  const judged = [...blocking, ...citing, ...summaries].sort(
    (a, b) =>
      sessionIndex.get(a.session)! - sessionIndex.get(b.session)! ||
      a.seq - b.seq ||
      Number(b.ownSeq) - Number(a.ownSeq) ||
      a.occurredAt - b.occurredAt ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const citations: Citation[] = [];
  const blockers: Blocker[] = [];
  for (const j of judged) {
    citations.push(...j.citations);
    if (j.blocker) blockers.push(j.blocker);
  }
  return concludeAnswer(citations, blockers, checkedSpans, gaps);
}

/** Seq gaps, read only for sessions whose counts say they have one. */
async function findGaps(sessions: ScopeSessionRow[]): Promise<SeqGap[]> {
  const holed = sessions.filter((s) => s.seq_count > 0 && s.seq_max! - s.seq_min! + 1 > s.seq_count).map((s) => s.id);
  if (holed.length === 0) return [];
  const rows = await db().$queryRaw<Array<{ session_id: string; seq: number }>>`
    select session_id::text as session_id, seq from span where session_id = any(${holed}::uuid[]) and seq is not null order by session_id, seq`;
  const bySession = new Map<string, Array<{ seq: number }>>();
  for (const row of rows) {
    const list = bySession.get(row.session_id);
    if (list) list.push({ seq: row.seq });
    else bySession.set(row.session_id, [{ seq: row.seq }]);
  }
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  return holed
    .sort((a, b) => order.get(a)! - order.get(b)!)
    .flatMap((id) => seqGaps({ id }, bySession.get(id) ?? []));
}

/** Spans whose atoms are checked: every span the engine sees in scope, less the replaced ones that cannot be checked. */
async function countChecked(sessions: ScopeSessionRow[], scope: Scope, now: Date): Promise<number> {
  const timed = scope.from !== null || scope.to !== null;
  const [unchecked, inScope] = await Promise.all([
    db().$queryRaw<Array<{ n: number }>>(uncheckedCountQuery(scope, now)),
    timed
      ? db().$queryRaw<Array<{ n: number }>>`
          select count(*)::int as n from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and s.kind <> 'SUMMARY' and s.seq is not null`
      : Promise.resolve([{ n: sessions.reduce((sum, s) => sum + s.non_summary_count, 0) }]),
  ]);
  return inScope[0]!.n - unchecked[0]!.n;
}

function uncheckedCountQuery(scope: Scope, now: Date): Prisma.Sql {
  const [gone, expired] = uncheckedParts(now);
  return Prisma.sql`
    select ((select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${gone})
          + (select count(*) from span s where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${expired}))::int as n`;
}

/** Replaced spans that cannot be checked and could hold a match: each one the engine lets block. */
async function judgeUnchecked(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<Judged[]> {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return [];
  const select = (condition: Prisma.Sql) => db().$queryRaw<Array<SpanFactsRow & { dropped: KindCount[] | null }>>(uncheckedQuery(condition, scope, classes));
  const [gone, expired] = uncheckedParts(now);
  const rows = (await Promise.all([select(gone), select(expired)])).flat();
  const out: Judged[] = [];
  for (const row of rows) {
    const span = questionSpan(row, row.seq!, policy, now, row.transcript_state === "RECLAIMED_HONEST" ? { droppedByManifest: row.dropped ?? [] } : {});
    const judged = judgeSpan(span, predicates, cwdOf(row.session_id), new Map());
    if (judged.blocker || judged.citations.length > 0) out.push(placed(row, row.seq!, true, judged.citations, judged.blocker));
  }
  return out;
}

function uncheckedQuery(condition: Prisma.Sql, scope: Scope, classes: EvidentialClass[]): Prisma.Sql {
  return Prisma.sql`
    select ${SPAN_FACTS},
           case when s.transcript_state = 'RECLAIMED_HONEST'
                then (select l.dropped from summary_link l where l.session_id = s.session_id and l.replaced_span_id = s.id) end as dropped
      from span s
     where ${inSessions("s", scope)} and ${inTime("s", scope)} and ${condition} and s.class = any(${classes}::"EvidentialClass"[])`;
}

function placed(row: SpanFactsRow, seq: number, ownSeq: boolean, citations: Citation[], blocker: Blocker | null): Judged {
  return { session: row.session_id, seq, ownSeq, occurredAt: row.occurred_at.getTime(), id: row.id, citations, blocker };
}

/**
 * Checkable spans with an atom some predicate could match: the candidates come from the atom
 * indexes; the engine judges each with every atom any predicate could match (and, for predicates
 * on tool names or commands, the span's tool calls and commands), which is all its verdict reads.
 */
async function judgeCandidates(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<Judged[]> {
  const perPredicate = await Promise.all(predicates.map((p) => db().$queryRaw<AtomRow[]>(candidateAtomsQuery(p, scope))));
  // Atoms by span, and the spans some predicate still holds after the engine's atom test.
  const atomsBySpan = new Map<string, Map<number, AtomRow>>();
  const spanLevel = new Set<string>();
  perPredicate.forEach((rows, i) => {
    for (const row of rows) {
      const key = keyOf(row.session_id, row.span_id);
      let atoms = atomsBySpan.get(key);
      if (!atoms) atomsBySpan.set(key, (atoms = new Map()));
      atoms.set(row.ordinal, row);
      if (hasSpanLevelConditions(predicates[i]!)) spanLevel.add(key);
    }
  });
  if (atomsBySpan.size === 0) return [];
  const keys = [...atomsBySpan.keys()].map((k) => k.split("/") as [string, string]);
  const sessionsOf = keys.map((k) => k[0]);
  const spansOf = keys.map((k) => k[1]);
  const levelKeys = [...spanLevel].map((k) => k.split("/") as [string, string]);
  const [facts, levelAtoms] = await Promise.all([
    db().$queryRaw<SpanFactsRow[]>`
      select ${SPAN_FACTS}
        from unnest(${sessionsOf}::uuid[], ${spansOf}::uuid[]) as k(session_id, span_id)
        join span s on s.session_id = k.session_id and s.id = k.span_id
       where s.kind <> 'SUMMARY' and s.seq is not null and ${inTime("s", scope)}
         and (s.transcript_state in ('VERBATIM', 'PRESERVED') or ${retrievableWithPointer("s", now)})`,
    levelKeys.length === 0
      ? Promise.resolve([] as AtomRow[])
      : db().$queryRaw<AtomRow[]>`
          select ${ATOM_FIELDS}
            from unnest(${levelKeys.map((k) => k[0])}::uuid[], ${levelKeys.map((k) => k[1])}::uuid[]) as k(session_id, span_id)
            join evidence_atom a on a.session_id = k.session_id and a.span_id = k.span_id
           where a.kind in ('COMMAND', 'TOOL_CALL')`,
  ]);
  for (const row of levelAtoms) atomsBySpan.get(keyOf(row.session_id, row.span_id))!.set(row.ordinal, row);

  const out: Judged[] = [];
  for (const row of facts) {
    const atoms = [...atomsBySpan.get(keyOf(row.session_id, row.id))!.values()].sort((a, b) => a.ordinal - b.ordinal).map(toAtom);
    const span = questionSpan(row, row.seq!, policy, now, { atoms });
    const judged = judgeSpan(span, predicates, cwdOf(row.session_id), new Map());
    if (judged.blocker || judged.citations.length > 0) out.push(placed(row, row.seq!, true, judged.citations, judged.blocker));
  }
  return out;
}

function candidateAtomsQuery(p: CompiledPredicate, scope: Scope): Prisma.Sql {
  return Prisma.sql`select ${ATOM_FIELDS} from evidence_atom a where ${inSessions("a", scope)} and ${atomCondition("a", p)}`;
}

/**
 * Summaries in scope whose own text claims what the question asks: each blocks unless every
 * original it rests on can be checked, which the engine decides over the summary's lineage.
 */
async function judgeSummaries(
  predicates: CompiledPredicate[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  cwdOf: (sessionId: string) => string | undefined,
): Promise<Judged[]> {
  const classes = blockingClasses(predicates);
  if (classes.length === 0) return [];
  const rows = await db().$queryRaw<Array<SpanFactsRow & { atoms: AtomRow[] }>>(summariesQuery(predicates, scope, classes));
  // The engine's first test (does the text claim anything asked?) needs only the summary itself.
  const claiming = rows
    .map((row) => ({ row, atoms: row.atoms.map(toAtom) }))
    .filter(({ row, atoms }) =>
      predicates.some(
        (p) =>
          blockingClasses([p]).includes(row.class) &&
          spanQualifies(p, { atoms, ...(row.tool_name !== null ? { toolName: row.tool_name } : {}) }, true) &&
          atoms.some((a) => matchAtom(p, a, cwdOf(row.session_id), true) !== "NO_MATCH"),
      ),
    );
  const out: Judged[] = [];
  const bySession = new Map<string, typeof claiming>();
  for (const c of claiming) bySession.set(c.row.session_id, [...(bySession.get(c.row.session_id) ?? []), c]);
  for (const [sessionId, list] of bySession) {
    const lineage = await lineageStatuses(db(), sessionId, list.map((c) => c.row.id), policy, now);
    const replaces = new Map<string, string[]>();
    for (const link of lineage.links) replaces.set(link.summaryId, [...(replaces.get(link.summaryId) ?? []), link.replacedId]);
    // The spans of the lineage as the engine sees them: a summary without a seq sits where the
    // first span it replaced sat, and one that cannot be placed is not seen at all.
    const byId = new Map<string, QuestionSpan>();
    const seqOf = (id: string): number | null => {
      const fact = lineage.spans.get(id);
      if (!fact) return null;
      if (fact.seq !== null) return fact.seq;
      const own = (replaces.get(id) ?? []).map((r) => lineage.spans.get(r)?.seq).filter((s): s is number => typeof s === "number");
      return own.length > 0 ? Math.min(...own) : null;
    };
    for (const [id, fact] of lineage.spans) {
      const seq = seqOf(id);
      if (seq === null) continue;
      const row: SpanFactsRow = { ...fact, session_id: sessionId, sha256: "", tool_name: null };
      byId.set(id, {
        ...questionSpan(row, seq, policy, now, replaces.has(id) ? { replaces: replaces.get(id)! } : {}),
        provenance: lineage.statuses.get(id) ?? "NONE",
      });
    }
    for (const { row, atoms } of list) {
      const seq = seqOf(row.id);
      if (seq === null) continue;
      const span: QuestionSpan = {
        ...questionSpan(row, seq, policy, now, { atoms, ...(replaces.has(row.id) ? { replaces: replaces.get(row.id)! } : {}) }),
        provenance: lineage.statuses.get(row.id) ?? "NONE",
      };
      const judged = judgeSpan(span, predicates, cwdOf(sessionId), byId);
      if (judged.blocker) out.push(placed(row, seq, row.seq !== null, [], judged.blocker));
    }
  }
  return out;
}

/** Summaries in scope of a class that can hold a match, with the atoms that could make a claim and their commands and tool calls. */
function summariesQuery(predicates: CompiledPredicate[], scope: Scope, classes: EvidentialClass[]): Prisma.Sql {
  const claimConditions = predicates.map((p) => atomCondition("a", p, { asClaim: true }));
  return Prisma.sql`
    select ${SPAN_FACTS},
           coalesce((select json_agg(json_build_object('session_id', a.session_id, 'span_id', a.span_id, 'ordinal', a.ordinal, 'kind', a.kind,
                       'text', a.text, 'normalized', a.normalized, 'byte_start', a.byte_start, 'byte_end', a.byte_end, 'effect', a.effect,
                       'negated', a.negated, 'arg_name', a.arg_name) order by a.ordinal)
                       from evidence_atom a
                      where a.session_id = s.session_id and a.span_id = s.id
                        and (${Prisma.join(claimConditions.map((c) => Prisma.sql`(${c})`), " or ")} or a.kind in ('COMMAND', 'TOOL_CALL'))), '[]'::json) as atoms
      from span s
     where ${inSessions("s", scope)} and ${inTime("s", scope)} and s.kind = 'SUMMARY' and s.class = any(${classes}::"EvidentialClass"[])`;
}

/**
 * Citations carry the verbatim bytes they point at, read from the originals and hashed again: bytes
 * that no longer hash to the span's sha256 are never attached (the excerpt stays the atom's text,
 * as extracted from the verbatim body). False when that damage was news: it is recorded, and the
 * caller asks again, since a replaced span checked through those bytes no longer can be.
 */
async function attachCitedBytes(answer: QuestionAnswer): Promise<boolean> {
  const cited = new Map<string, { sessionId: string; spanId: string; sha256: string }>();
  for (const c of answer.citations) cited.set(keyOf(c.sessionId, c.spanId), { sessionId: c.sessionId, spanId: c.spanId, sha256: c.sha256 });
  if (cited.size === 0) return true;
  const list = [...cited.values()];
  // Raw queries cannot return bytea here: the bytes travel as base64.
  const rows = await db().$queryRaw<Array<{ session_id: string; span_id: string; bytes: string | null }>>`
    select o.session_id::text as session_id, o.span_id::text as span_id, encode(o.bytes, 'base64') as bytes
      from unnest(${list.map((c) => c.sessionId)}::uuid[], ${list.map((c) => c.spanId)}::uuid[]) as k(session_id, span_id)
      join span_original o on o.session_id = k.session_id and o.span_id = k.span_id`;
  const verified = new Map<string, Uint8Array>();
  const damaged: typeof list = [];
  for (const row of rows) {
    if (row.bytes === null) continue;
    const body = new Uint8Array(Buffer.from(row.bytes, "base64"));
    const key = keyOf(row.session_id, row.span_id);
    if (sha256Hex(body) === cited.get(key)!.sha256) verified.set(key, body);
    else damaged.push(cited.get(key)!);
  }
  const decoder = new TextDecoder("utf-8", { fatal: false });
  for (const citation of answer.citations) {
    const body = verified.get(keyOf(citation.sessionId, citation.spanId));
    if (!body) continue;
    citation.bytes = body.subarray(citation.byteStart, citation.byteEnd);
    citation.excerpt = decoder.decode(citation.bytes);
  }
  let news = 0;
  for (const d of damaged) news += await recordDamaged(db(), d.sessionId, [d.spanId]);
  return news === 0;
}
