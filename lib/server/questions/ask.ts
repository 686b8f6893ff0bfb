import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  blockingClasses,
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
  type SeqGap,
  type SkippedRecordRef,
} from "@/lib/evidence/questions";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { inTime, timed, type Scope, type ScopeSessionRow } from "./scope";
import { countChecked, findGaps, judgeUnchecked, uncheckedCountQuery, uncheckedParts, uncheckedQuery } from "./spans";
import { candidateAtomsQuery, judgeCandidates } from "./candidate-spans";
import { judgeSummaries, summariesQuery } from "./summaries";
import { recordDamaged } from "@/lib/server/provenance";
import { loadCannedQuestions } from "@/lib/server/retention";
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
}

export interface EvidenceQueryResult extends QuestionAnswer {
  question: EvidenceQuestion;
  sessionsInScope: number;
}

/**
 * Answers an evidence question over a project's sessions (or some of them), exactly as the pure
 * engine (answerQuestion) would over every span in scope, without loading every span: indexes find
 * the atoms that could match and the spans that could block, session counts give the seq gaps and
 * the number of spans checked, and the engine judges each span found (judgeSpan), citing the
 * verbatim bytes of originals hashed again as they are read.
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
  const key = verdictKeyFor(input, question, policy, scope);
  const parts = key ? await readVerdicts(sessions, key, now) : new Map<string, SessionAnswer>();
  const stale = sessions.filter((s) => !parts.has(s.id));
  if (stale.length > 0) {
    const staleScope = stale.length === sessions.length ? scope : { ...scope, sessionIds: stale.map((s) => s.id) };
    let { answers, damaged } = await answerSessions(question, stale, staleScope, policy, now);
    // Bytes damaged behind the database's back since they were last verified are recorded now;
    // asking again judges the replaced spans that rested on them as they are.
    let news = 0;
    for (const d of damaged) news += await recordDamaged(db(), d.sessionId, [d.spanId]);
    if (news > 0) ({ answers } = await answerSessions(question, stale, staleScope, policy, now));
    // Recording damage moved those sessions' versions on: their verdicts would never be read.
    else if (key) await (options.keepVerdicts ?? ((work) => work()))(() => saveVerdicts(stale, answers, key, now));
    for (const [id, answer] of answers) parts.set(id, answer);
  }
  const citations: Citation[] = [];
  const blockers: Blocker[] = [];
  const gaps: SeqGap[] = [];
  let checked = 0;
  // Loops, not push(...list): a session can hold more blockers than a call takes arguments.
  for (const s of sessions) {
    const part = parts.get(s.id)!;
    for (const c of part.citations) citations.push(c);
    for (const b of part.blockers) blockers.push(b);
    for (const g of part.gaps) gaps.push(g);
    checked += part.checked;
  }
  const [skipped, empty] = await Promise.all([skippedRecordsOf(sessions), noSpansIn(sessions, scope)]);
  return {
    ...concludeAnswer(citations, blockers, checked, gaps, skipped, empty),
    question,
    sessionsInScope: sessions.length,
  };
}

/**
 * The records their imports skipped, in the engine's order (session, then line). Read afresh on
 * every ask (one primary-key range per session), not kept in stored verdicts.
 */
async function skippedRecordsOf(sessions: ScopeSessionRow[]): Promise<SkippedRecordRef[]> {
  if (sessions.length === 0) return [];
  const rows = await db().$queryRaw<Array<{ session_id: string; line: number; reason: string }>>`
    select session_id::text as session_id, line, reason from skipped_record
     where session_id = any(${sessions.map((s) => s.id)}::uuid[])`;
  const index = new Map(sessions.map((s, i) => [s.id, i]));
  return rows
    .sort((a, b) => index.get(a.session_id)! - index.get(b.session_id)! || a.line - b.line)
    .map((r) => ({ sessionId: r.session_id, line: r.line, reason: r.reason }));
}

/** No span at all in scope (summaries included): such a scope never answers NO. */
async function noSpansIn(sessions: ScopeSessionRow[], scope: Scope): Promise<boolean> {
  if (!timed(scope)) return sessions.every((s) => s.span_count === 0);
  if (sessions.length === 0) return true;
  const [row] = await db().$queryRaw<Array<{ any: boolean }>>`
    select exists (select 1 from span s where s.session_id = any(${sessions.map((s) => s.id)}::uuid[]) and ${inTime("s", scope)}) as any`;
  return !row?.any;
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

async function prepare(input: EvidenceQueryInput) {
  const { policy, canned } = await loadCannedQuestions(db(), input.projectId);
  const question = resolveQuestion(input.question, canned);
  const sessionIds = input.scope?.sessionIds;
  if (sessionIds?.some((id) => !isUuid(id))) throw new AppError("NOT_FOUND", "Session not found");
  const sessions = await db().$queryRaw<ScopeSessionRow[]>`
    select id::text as id, cwd, span_count, non_summary_count, unchecked_count, seq_count, seq_min, seq_max, evidence_version::text as evidence_version
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
export async function evidenceQueriesToExplain(
  input: EvidenceQueryInput,
  now = new Date(),
): Promise<Array<{ label: string; sql: Prisma.Sql }>> {
  const { question, policy, sessions, scope } = await prepare(input);
  const key = verdictKeyFor(input, question, policy, scope);
  const predicates = compileQuestion(question);
  const classes = blockingClasses(predicates);
  const [gone, expired] = uncheckedParts(now);
  return [
    ...(key ? [{ label: "stored verdicts of the sessions in scope", sql: verdictsQuery(sessions, key, now) }] : []),
    ...predicates.map((p, i) => ({ label: `candidate atoms, predicate ${i + 1}`, sql: candidateAtomsQuery(p, scope) })),
    {
      label: "unchecked spans that could block (no pointer or original not held)",
      sql: uncheckedQuery(gone, scope, classes, now),
    },
    { label: "unchecked spans that could block (TTL passed)", sql: uncheckedQuery(expired, scope, classes, now) },
    { label: "unchecked span count", sql: uncheckedCountQuery(scope, now) },
    { label: "summaries in scope, and what they replaced", sql: summariesQuery(scope) },
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

/** The engine's answer over each of these sessions (those of the scope). */
async function answerSessions(
  question: EvidenceQuestion,
  sessions: ScopeSessionRow[],
  scope: Scope,
  policy: RetentionPolicy,
  now: Date,
): Promise<{ answers: Map<string, SessionAnswer>; damaged: Array<{ sessionId: string; spanId: string }> }> {
  const predicates = compileQuestion(question);
  const sessionIndex = new Map(sessions.map((s, i) => [s.id, i]));
  const cwdOf = (sessionId: string) => sessions[sessionIndex.get(sessionId)!]?.cwd ?? undefined;
  const [gaps, checked, unchecked, citing, summaries] = await Promise.all([
    findGaps(sessions),
    countChecked(sessions, scope, now),
    judgeUnchecked(predicates, scope, policy, now, cwdOf, sessionIndex),
    judgeCandidates(predicates, scope, policy, now, cwdOf),
    judgeSummaries(predicates, scope, policy, now, cwdOf),
  ]);
  const answers = new Map<string, SessionAnswer>(
    sessions.map((s) => [s.id, { checked: checked.get(s.id) ?? 0, citations: [], blockers: [], gaps: [] }]),
  );
  for (const g of gaps) answers.get(g.sessionId)!.gaps.push(g);
  // The engine's order within a session: seq; a summary without a seq of its own after the span
  // whose seq it takes, then by time. The unchecked spans come in that order already, and none
  // has the seq of a span judged here (they are checkable, or summaries).
  const judged = [...citing.judged, ...summaries].sort(
    (a, b) =>
      sessionIndex.get(a.session)! - sessionIndex.get(b.session)! ||
      a.seq - b.seq ||
      Number(b.ownSeq) - Number(a.ownSeq) ||
      a.occurredAt - b.occurredAt ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let u = 0;
  const block = (b: Blocker) => answers.get(b.sessionId)!.blockers.push(b);
  for (const j of judged) {
    answers.get(j.session)!.citations.push(...j.citations);
    if (!j.blocker) continue;
    // Unchecked spans before this one: earlier sessions, or lower seqs (or the same seq, for a
    // summary sitting after the span whose seq it takes).
    const at = sessionIndex.get(j.session)!;
    for (; u < unchecked.length; u++) {
      const b = unchecked[u]!;
      const order = sessionIndex.get(b.sessionId)! - at || b.seq - j.seq;
      if (order > 0 || (order === 0 && j.ownSeq)) break;
      block(b);
    }
    block(j.blocker);
  }
  for (; u < unchecked.length; u++) block(unchecked[u]!);
  return { answers, damaged: citing.damaged };
}
