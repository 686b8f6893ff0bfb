import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db, sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  compileQuestion,
  concludeAnswer,
  isCannedQuestionId,
  validatePredicate,
  type Blocker,
  type CannedQuestionId,
  type Citation,
  type EvidencePredicate,
  type EvidenceQuestion,
  type QuestionAnswer,
} from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { timed, type Scope, type ScopeSessionRow } from "./scope";
import { countChecked, findGaps, sessionsWithSpansIn, skippedRecordsOf } from "./spans";
import { uncheckedCountQuery, uncheckedRowsQuery } from "./unchecked";
import { judgeCountedBlockers } from "./blocking";
import { countedBlockersQuery, type UnknownCandidates } from "./unknown-blockers";
import { CANDIDATE_ROWS_AT_ONCE, judgeCandidates } from "./candidate-spans";
import { candidateSources, citedBytesQuery } from "./candidate-sql";
import { judgeSummaries, summariesQuery } from "./summaries";
import { recordDamagedSpans } from "@/lib/server/provenance";
import { loadCannedQuestions } from "@/lib/server/retention";
import type { Judged } from "./scope";
import { addTallies, ANSWER_WINDOW, FirstItems, OutcomeTally } from "./window";
import { assembleLists, shortParts } from "./assemble";
import { citedBytes, spansCited } from "./cited-bytes";
import { readVerdicts, saveVerdicts, verdictKey, verdictsQuery, type SessionAnswer } from "./verdicts";

export interface EvidenceQueryInput {
  projectId: string;
  question: { canned: string } | { predicate: EvidencePredicate; title?: string };
  scope?: { sessionIds?: string[]; from?: Date; to?: Date };
}

export interface AskOptions {
  /**
   * How the verdicts judged afresh are kept: awaited by default; a route hands them to run once its
   * response is sent (afterResponse), so a reviewer does not wait for the write.
   */
  keepVerdicts?: (work: () => Promise<void>) => void | Promise<void>;
  /** Citations, and blockers, the answer keeps at most (ANSWER_WINDOW): the first in the engine's order. */
  window?: number;
  /** Candidate spans judged at a time (BATCH_SPANS). */
  batchSpans?: number;
  /** Candidate rows a predicate may bring in one statement before cursors read them (CANDIDATE_ROWS_AT_ONCE). */
  rowsAtOnce?: number;
  /** Called as candidate spans are judged, with how many so far. */
  onProgress?: (progress: QuestionProgress) => void;
}

export interface QuestionProgress {
  /** Candidate spans judged so far, and sessions answered out of those in scope. */
  candidateSpans: number;
  sessionsDone: number;
  sessionsTotal: number;
}

/**
 * The engine's answer, but that `citations` and `blockers` are its first ones (up to the window),
 * counted in full by `citationCount` and `blockerCount`; `outcomes` tallies every citation.
 */
export interface EvidenceQueryResult extends QuestionAnswer {
  question: EvidenceQuestion;
  sessionsInScope: number;
  citationCount: number;
  blockerCount: number;
}

/**
 * Answers an evidence question over a project's sessions (or some of them), exactly as the pure
 * engine (answerQuestion) would over every span in scope, without loading every span: indexes find
 * the atoms that could match and the spans that could block, session counts give the seq gaps and
 * the number of spans checked, and the engine judges each span found (judgeSpan) from its facts;
 * the citations the answer keeps then carry the verbatim bytes of their originals, hashed again as
 * they are read (cited-bytes.ts).
 *
 * The engine's answer over many sessions is the sum of its answers over each: a canned question
 * without a time range reads the stored verdicts of sessions unchanged since it was last asked
 * (question-verdicts.ts) and judges only the others, whose verdicts it then keeps.
 */
export async function askEvidenceQuestion(
  input: EvidenceQueryInput,
  now = new Date(),
  options: AskOptions = {},
): Promise<EvidenceQueryResult> {
  const { question, policy, sessions, scope } = await prepare(input);
  const window = options.window ?? ANSWER_WINDOW;
  // Stored verdicts hold each session's first items, as many as were kept (assemble.ts): any
  // answer with a window reads them, judging again those that hold too few. An export (no window)
  // judges every session afresh.
  const key = Number.isFinite(window) ? verdictKeyFor(input, question, policy, scope) : null;
  const parts = key ? await readVerdicts(sessions, key, now) : new Map<string, SessionAnswer>();
  // Progress only moves forward: the spans judged add up over the rounds below, and a session
  // counts as done once it has an answer (read, or judged in an earlier round).
  let sessionsDone = parts.size;
  let spansBefore = 0;
  let spansNow = 0;
  const progress = (candidateSpans: number) => {
    spansNow = candidateSpans;
    options.onProgress?.({ candidateSpans: spansBefore + candidateSpans, sessionsDone, sessionsTotal: sessions.length });
  };
  progress(0); // how many sessions there are to answer, before the first batch is judged
  // Within a time range, only sessions with a span in it can cite or block (every candidate,
  // blocker and summary judged is a span in the range): the others are left out of those reads,
  // while their checked spans, seq gaps and skipped records count as the engine counts them.
  const withSpans = await sessionsWithSpansIn(sessions, scope);
  const spanning = new Set(withSpans.map((s) => s.id));
  const judge = async (some: ScopeSessionRow[]) => {
    const someScope = some.length === sessions.length ? scope : { ...scope, sessionIds: some.map((s) => s.id) };
    const readScope = timed(scope)
      ? { ...scope, sessionIds: some.filter((s) => spanning.has(s.id)).map((s) => s.id) }
      : someScope;
    const run = () => answerSessions(question, some, readScope, policy, now, { ...options, window }, progress);
    let { answers, damaged } = await run();
    // Bytes damaged behind the database's back since they were last verified are recorded, and the
    // sessions judged again, until none is found: the replaced spans that rested on them block, and
    // the citations kept next have their own originals hashed (only the kept ones are: cited-bytes.ts).
    let recorded = false;
    while ((await recordDamagedSpans(db(), damaged)) > 0) {
      recorded = true;
      ({ answers, damaged } = await run());
    }
    // Recording damage moved those sessions' versions on: their verdicts would never be read.
    // Otherwise each session's is kept, its lists as far as the window held them (assemble.ts).
    if (key && !recorded) await (options.keepVerdicts ?? ((work) => work()))(() => saveVerdicts(some, answers, key, now));
    spansBefore += spansNow;
    spansNow = 0;
    for (const [id, answer] of answers) parts.set(id, answer);
  };
  const stale = sessions.filter((s) => !parts.has(s.id));
  if (stale.length > 0) await judge(stale);
  // Sessions judged now hold all this answer needs of them; a stored verdict cut short by the
  // window it was judged in may not (where the sessions before it are not those it was judged
  // after, or the window is larger now): those are judged again.
  const short = shortParts(sessions, parts, window);
  sessionsDone = Math.max(sessionsDone, sessions.length - short.length);
  if (short.length > 0) await judge(short);
  const { citations, blockers, gaps, checked, citationCount, blockerCount } = assembleLists(sessions, parts, window);
  const skipped = await skippedRecordsOf(sessions);
  const concluded = concludeAnswer(citations, blockers, checked, gaps, skipped, withSpans.length === 0);
  return {
    ...concluded,
    outcomes: addTallies(sessions.map((s) => parts.get(s.id)!.outcomes)),
    citationCount,
    blockerCount,
    question,
    sessionsInScope: withSpans.length,
  };
}

/** Canned questions without a time range keep per-session verdicts; others are always judged afresh. */
function verdictKeyFor(
  input: EvidenceQueryInput,
  question: EvidenceQuestion,
  policy: RetentionPolicy,
  scope: Scope,
): string | null {
  return "canned" in input.question && !timed(scope) ? verdictKey(question, policy) : null;
}

/**
 * The checks an ask makes before it judges anything (the question is valid, its sessions are the
 * project's), and nothing else: a question queued as a job fails them in its request, as a
 * question answered at once does, instead of becoming a failed job.
 */
export async function checkEvidenceQuestion(input: EvidenceQueryInput): Promise<void> {
  await prepare(input);
}

async function prepare(input: EvidenceQueryInput) {
  const { policy, canned } = await loadCannedQuestions(db(), input.projectId);
  const question = resolveQuestion(input.question, canned);
  const sessionIds = input.scope?.sessionIds;
  if (sessionIds?.some((id) => !isUuid(id))) throw new AppError("NOT_FOUND", "Session not found");
  const sessions = await sqlRows<ScopeSessionRow>(Prisma.sql`
    select id::text as id, cwd, span_count, non_summary_count, unchecked_count, seq_count, seq_min, seq_max, evidence_version::text as evidence_version
      from session
     where project_id = ${input.projectId}::uuid ${sessionIds ? Prisma.sql`and id = any(${sessionIds}::uuid[])` : Prisma.empty}
     order by created_at, id`);
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
export async function evidenceQueriesToExplain(
  input: EvidenceQueryInput,
  now = new Date(),
): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const { question, policy, sessions, scope } = await prepare(input);
  const key = verdictKeyFor(input, question, policy, scope);
  const predicates = compileQuestion(question);
  const counted = countedBlockersQuery(
    predicates,
    scope,
    now,
    sessions.map((s) => s.id),
    ANSWER_WINDOW,
    CANDIDATE_ROWS_AT_ONCE,
  );
  // Without unknown tools' calls to count, the unchecked spans are counted, then their first rows
  // read (those of the first sessions, up to the window: all of them here, as an upper bound).
  const uncheckedCounted = counted ? null : uncheckedCountQuery(predicates, scope, now);
  const rows = counted
    ? null
    : uncheckedRowsQuery(
        predicates,
        scope,
        now,
        sessions.map((s) => ({ sessionId: s.id, limit: ANSWER_WINDOW })),
      );
  return [
    ...(key ? [{ label: "stored verdicts of the sessions in scope", sql: verdictsQuery(sessions, key, now) }] : []),
    ...candidateSources(predicates, scope).map((sql, i) => ({
      label:
        i < predicates.length
          ? `candidate atoms, predicate ${i + 1}`
          : "calls of tools whose effects are not known that a predicate could match (through cursors)",
      sql,
    })),
    ...(uncheckedCounted ? [{ label: "unchecked spans that block, counted per session", sql: uncheckedCounted }] : []),
    ...(rows ? [{ label: "unchecked spans that block, the first of each session", sql: rows }] : []),
    ...(counted
      ? [
          {
            label:
              "counted blockers: unchecked spans and calls of tools whose effects are not known, per session, with the calls a predicate could match",
            sql: counted,
          },
        ]
      : []),
    { label: "summaries in scope, and what they replaced", sql: summariesQuery(scope) },
    ...(await citedOriginalsToExplain(input, now)),
  ];
}

/** Which originals are read depends on the citations an answer keeps: the question is asked first (its verdicts not kept). */
async function citedOriginalsToExplain(input: EvidenceQueryInput, now: Date): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const { spans } = spansCited((await askEvidenceQuestion(input, now, { keepVerdicts: () => {} })).citations);
  if (spans.length === 0) return [];
  return [
    {
      label: `the originals of the ${spans.length} spans the answer's citations are cut from`,
      sql: citedBytesQuery(spans),
    },
  ];
}

function resolveQuestion(
  question: EvidenceQueryInput["question"],
  canned: Record<CannedQuestionId, EvidenceQuestion>,
): EvidenceQuestion {
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

/**
 * The engine's answer over each of these sessions (those of the scope), with each session's first
 * citations and blockers as far as the window holds them (the scope's first, in session order:
 * a session past them keeps none) and exact counts and tallies for all.
 */
async function answerSessions(
  question: EvidenceQuestion,
  sessions: ScopeSessionRow[],
  /** The sessions read: within a time range, only those of `sessions` with a span in it. */
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
  options: AskOptions & { window: number },
  progress: (candidateSpans: number) => void,
): Promise<{
  answers: Map<string, SessionAnswer>;
  damaged: Array<{ sessionId: string; spanId: string }>;
}> {
  const predicates = compileQuestion(question);
  const sessionIndex = new Map(sessions.map((s, i) => [s.id, i]));
  const cwdOf = (sessionId: string) => sessions[sessionIndex.get(sessionId)!]?.cwd ?? undefined;
  // The engine's order within a session: seq; a summary without a seq of its own after the span
  // whose seq it takes, then by time. Unchecked spans have seqs of their own, none that of a span
  // judged here (those are checkable, or summaries).
  const citations = new FirstItems<Citation>(options.window);
  const blockers = new FirstItems<Blocker>(options.window);
  const tally = new OutcomeTally();
  const judged = (j: Judged) => {
    const at = { session: sessionIndex.get(j.session)!, seq: j.seq, rank: j.ownSeq ? 0 : 1, occurredAt: j.occurredAt, id: j.id };
    j.citations.forEach((c, index) => {
      citations.offer({ ...at, index, value: c });
      tally.add(c);
    });
    if (j.blocker) blockers.offer({ ...at, index: 0, value: j.blocker });
  };
  const offered = new Map<number, number>();
  const unchecked = (b: Blocker) => {
    const session = sessionIndex.get(b.sessionId)!;
    offered.set(session, (offered.get(session) ?? 0) + 1);
    blockers.offer({ session, seq: b.seq, rank: 0, occurredAt: 0, id: b.spanId, index: 0, value: b });
  };
  // The counted blockers' statement finds the unknown tools' calls some predicate could match, which
  // the candidates judge; an error there fails the question, and the candidates with it.
  let tellCandidates: (candidates: UnknownCandidates) => void = () => {};
  let failCandidates: (error: unknown) => void = () => {};
  const unknownCandidates = new Promise<UnknownCandidates>((resolve, reject) => {
    tellCandidates = resolve;
    failCandidates = reject;
  });
  unknownCandidates.catch(() => {}); // handled where it is awaited
  const rowsAtOnce = options.rowsAtOnce ?? CANDIDATE_ROWS_AT_ONCE;
  // Statements without a transaction run on connections of their own, beside the candidates' cursors.
  const pooled = <R>(sql: Prisma.Sql) => sqlRows<R & object>(sql) as Promise<R[]>;
  // A session the scope leaves out has no span in the range: none of its spans is checked.
  const read = scope.sessionIds ? new Set(scope.sessionIds) : null;
  const [gaps, checked, blocking, , summaries] = await Promise.all([
    findGaps(sessions),
    countChecked(read ? sessions.filter((s) => read.has(s.id)) : sessions, scope, now),
    judgeCountedBlockers(
      pooled,
      predicates,
      sessions,
      scope,
      policy,
      now,
      options.window,
      rowsAtOnce,
      tellCandidates,
      cwdOf,
      unchecked,
    ).catch((error: unknown) => {
      failCandidates(error);
      throw error;
    }),
    judgeCandidates(predicates, scope, policy, now, cwdOf, judged, {
      ...(options.batchSpans ? { batchSpans: options.batchSpans } : {}),
      rowsAtOnce,
      onProgress: progress,
      unknownCandidates,
    }),
    judgeSummaries(predicates, scope, policy, now, cwdOf),
  ]);
  for (const j of summaries) judged(j);
  // Counted blockers past the window were counted, not read.
  for (const [id, n] of blocking) {
    const session = sessionIndex.get(id)!;
    blockers.countUnoffered(session, n - (offered.get(session) ?? 0));
  }
  const answers = new Map<string, SessionAnswer>(
    sessions.map((s, i) => [
      s.id,
      {
        checked: checked.get(s.id) ?? 0,
        citations: [],
        citationCount: citations.counts.get(i) ?? 0,
        blockers: [],
        blockerCount: blockers.counts.get(i) ?? 0,
        outcomes: tally.of(s.id),
        gaps: [],
      },
    ]),
  );
  for (const g of gaps) answers.get(g.sessionId)!.gaps.push(g);
  const kept = citations.sorted();
  for (const c of kept) answers.get(sessions[c.session]!.id)!.citations.push(c.value);
  for (const b of blockers.sorted()) answers.get(sessions[b.session]!.id)!.blockers.push(b.value);
  return {
    answers,
    damaged: await citedBytes(
      pooled,
      kept.map((c) => c.value),
    ),
  };
}
