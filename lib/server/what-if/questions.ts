/**
 * Which evidence questions (the canned ones and the project's saved ones) change their answer under
 * a policy, for which sessions, when, and because of which spans. Retention moves an answer one way only: a replaced span is checkable
 * while its original is held, so when the original goes
 * - a NO becomes INSUFFICIENT_EVIDENCE at the first such span that could hold a match (its class
 *   can, and an honest summary over it dropped atoms of a kind the question reads);
 * - a YES becomes INSUFFICIENT_EVIDENCE when the last span it cites goes (verbatim spans, pinned
 *   originals and originals kept past the horizon keep a citation alive).
 * The spans that can move an answer are found in SQL (replaced, original held and unpinned, due
 * within the horizon under either policy), a bounded number, soonest first; the current answers of
 * their sessions come from the evidence engine (its stored per-session verdicts).
 */
import { db } from "@/lib/db/client";
import { blockingClasses, compileQuestion, type CannedQuestionId, type EvidenceQuestion } from "@/lib/evidence/questions";
import { askEvidenceQuestion, type EvidenceQueryInput, listSavedQuestions, savedAsQuestion } from "@/lib/server/questions";
import { loadCannedQuestions } from "@/lib/server/retention";
import { type Candidate, MAX_CANDIDATE_SPANS, MAX_SESSIONS_JUDGED } from "./scan";

export interface QuestionChange {
  /** A canned question's id, or a saved question's (a uuid). */
  questionId: string;
  questionTitle: string;
  sessionId: string;
  from: "YES" | "NO";
  to: "INSUFFICIENT_EVIDENCE";
  /** When the change happens: the expiry of the span that tips it. */
  at: string;
  /** The spans whose originals going makes the change. */
  spanIds: string[];
}

/** Saved questions judged at most (oldest first): each is judged afresh, as it has no stored verdicts. */
export const MAX_SAVED_JUDGED = 20;
const MAX_SPANS_NAMED = 20;
/** Answers asked concurrently (each holds a database connection while it reads). */
const ASKED_AT_ONCE = 4;
/**
 * Citations and blockers the answer over all sessions keeps: while its lists hold every item, each
 * session's answer is read from them; past it, every session is asked alone. More than an answer's
 * default page, so that a question with a few thousand matches is asked once.
 */
const LISTED_AT_ONCE = 10_000;

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

export async function questionsAffected(
  projectId: string,
  rows: Candidate[],
  now: Date,
  end: Date,
  /** The scan left out spans or sessions due (its bounds: MAX_CANDIDATE_SPANS, MAX_SESSIONS_JUDGED). */
  rowsTruncated = false,
): Promise<{ current: QuestionChange[]; proposed: QuestionChange[]; truncated: boolean }> {
  let truncated = rowsTruncated || rows.length > MAX_CANDIDATE_SPANS;
  const bySession = new Map<string, Candidate[]>();
  for (const r of rows.slice(0, MAX_CANDIDATE_SPANS)) {
    const list = bySession.get(r.session_id);
    if (list) list.push(r);
    else if (bySession.size < MAX_SESSIONS_JUDGED) bySession.set(r.session_id, [r]);
    else truncated = true;
  }
  if (bySession.size === 0) return { current: [], proposed: [], truncated };

  const [{ canned }, saved] = await Promise.all([loadCannedQuestions(db(), projectId), listSavedQuestions(projectId)]);
  const out = { current: [] as QuestionChange[], proposed: [] as QuestionChange[], truncated };
  if (saved.length > MAX_SAVED_JUDGED) out.truncated = true;
  const asked: Array<{ id: string; question: EvidenceQuestion; ask: EvidenceQueryInput["question"] }> = [
    ...(Object.entries(canned) as Array<[CannedQuestionId, EvidenceQuestion]>).map(([id, question]) => ({
      id,
      question,
      ask: { canned: id },
    })),
    ...saved
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, MAX_SAVED_JUDGED)
      .map((q) => ({ id: q.id, question: savedAsQuestion(q), ask: { predicate: q.predicate, title: q.title } })),
  ];
  const questions = asked.map(({ id, question, ask }) => {
    const predicates = compileQuestion(question);
    const classes = new Set(blockingClasses(predicates));
    const relevant = new Set(predicates.flatMap((p) => [...p.relevantKinds]));
    const blocks = (c: Candidate) =>
      classes.has(c.cls) && (!c.honest || (c.dropped ?? []).some((d) => d.count > 0 && relevant.has(d.kind)));
    return { id, question, ask, blocks };
  });
  // Only pairs where some due span could block can change: each question is asked once over its sessions.
  const judged = questions.map((q) => ({ ...q, sessions: [...bySession].filter(([, spans]) => spans.some(q.blocks)) }));
  await inBatches(
    judged.filter((q) => q.sessions.length > 0),
    ASKED_AT_ONCE,
    async ({ id, question, ask, blocks, sessions }) => {
      const answers = await answersBySession(
        projectId,
        ask,
        sessions.map(([sessionId]) => sessionId),
        now,
      );
      for (const [sessionId, spans] of sessions) {
        const answer = answers.get(sessionId)!;
        if (answer.answer === "INSUFFICIENT_EVIDENCE") continue;
        // An answer may list only its first citations: a YES whose citations are not all known is left as it is.
        if (answer.answer === "YES" && !answer.citationsKnown) out.truncated = true;
        for (const which of ["current", "proposed"] as const) {
          const at = (c: Candidate) => (which === "current" ? c.current_at : c.proposed_at);
          const dueSpans = spans.filter((c) => at(c) !== null && at(c)! < end);
          const change =
            answer.answer === "NO"
              ? firstBlocker(dueSpans.filter(blocks), at)
              : answer.citationsKnown
                ? lastCitation(dueSpans, answer.cited, at, blocks)
                : null;
          if (change) {
            out[which].push({
              questionId: id,
              questionTitle: question.title,
              sessionId,
              from: answer.answer,
              to: "INSUFFICIENT_EVIDENCE",
              at: change.at.toISOString(),
              spanIds: change.spanIds,
            });
          }
        }
      }
    },
  );
  const order = (a: QuestionChange, b: QuestionChange) =>
    a.at.localeCompare(b.at) || a.questionId.localeCompare(b.questionId) || a.sessionId.localeCompare(b.sessionId);
  for (const list of [out.current, out.proposed]) list.sort(order);
  return out;
}

interface SessionAnswer {
  answer: "YES" | "NO" | "INSUFFICIENT_EVIDENCE";
  cited: Set<string>;
  /** Every citation of the session's answer is in `cited`. */
  citationsKnown: boolean;
}

/**
 * Each session's answer to a question. An answer over many sessions is the sum of each one's (the
 * engine's own rule, and stored verdicts are per session), so one question is asked once over all
 * its sessions and each session's answer is read from the lists: YES with a citation of its own, NO
 * with nothing of its own blocking (no blocker, seq gap or skipped record; every session here holds
 * a span). When the lists are cut at their window, each session is asked alone instead.
 */
async function answersBySession(
  projectId: string,
  question: EvidenceQueryInput["question"],
  sessionIds: string[],
  now: Date,
): Promise<Map<string, SessionAnswer>> {
  const out = new Map<string, SessionAnswer>();
  const whole = await askEvidenceQuestion({ projectId, question, scope: { sessionIds } }, now, { window: LISTED_AT_ONCE });
  if (whole.citationCount <= whole.citations.length && whole.blockerCount <= whole.blockers.length) {
    const incomplete = new Set([
      ...whole.blockers.map((b) => b.sessionId),
      ...whole.gaps.map((g) => g.sessionId),
      ...whole.skippedRecords.map((r) => r.sessionId),
    ]);
    for (const id of sessionIds)
      out.set(id, { answer: incomplete.has(id) ? "INSUFFICIENT_EVIDENCE" : "NO", cited: new Set(), citationsKnown: true });
    for (const c of whole.citations) {
      const answer = out.get(c.sessionId)!;
      answer.answer = "YES";
      answer.cited.add(c.spanId);
    }
    return out;
  }
  await inBatches(sessionIds, ASKED_AT_ONCE, async (sessionId) => {
    const answer = await askEvidenceQuestion({ projectId, question, scope: { sessionIds: [sessionId] } }, now);
    out.set(sessionId, {
      answer: answer.answer,
      cited: new Set(answer.citations.map((c) => c.spanId)),
      citationsKnown: answer.citationCount <= answer.citations.length,
    });
  });
  return out;
}

type At = (c: Candidate) => Date | null;

/** A NO turns at the first span that could hold a match going. */
function firstBlocker(blocking: Candidate[], at: At): { at: Date; spanIds: string[] } | null {
  if (blocking.length === 0) return null;
  const first = Math.min(...blocking.map((c) => at(c)!.getTime()));
  const spanIds = blocking.filter((c) => at(c)!.getTime() === first).map((c) => c.span_id);
  return { at: new Date(first), spanIds: spanIds.slice(0, MAX_SPANS_NAMED) };
}

/** A YES turns when every cited span has gone, if one of them then blocks. */
function lastCitation(
  due: Candidate[],
  cited: Set<string>,
  at: At,
  blocks: (c: Candidate) => boolean,
): { at: Date; spanIds: string[] } | null {
  const going = due.filter((c) => cited.has(c.span_id));
  if (going.length === 0 || going.length < cited.size || !going.some(blocks)) return null;
  const last = Math.max(...going.map((c) => at(c)!.getTime()));
  return { at: new Date(last), spanIds: going.map((c) => c.span_id).slice(0, MAX_SPANS_NAMED) };
}
