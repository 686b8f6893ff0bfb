import { AppError } from "@/lib/api/errors";
import { isUuid } from "@/lib/api/ids";
import { db } from "@/lib/db/client";
import type { KindCount } from "@/lib/evidence/manifest";
import { isRetrievable } from "@/lib/evidence/provenance";
import {
  answerQuestion,
  applyCannedOverrides,
  cannedQuestionsFor,
  type CannedQuestionId,
  isCannedQuestionId,
  validatePredicate,
  type EvidencePredicate,
  type EvidenceQuestion,
  type QuestionAnswer,
  type QuestionSpan,
  type ScopeSession,
} from "@/lib/evidence/questions";
import { loadOriginalFacts } from "./original-facts";
import { loadPolicy, loadQuestionOverrides } from "./policy";
import { loadAtoms } from "./reclaim";
import { sessionSpanStatuses } from "./span-status";

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
 * Answers an evidence question over a project's sessions (or some of them): gathers each span's
 * checkable atoms, provenance and what honest summaries admitted dropping, lets the pure engine
 * decide, then attaches the verbatim bytes behind each citation.
 */
export async function askEvidenceQuestion(input: EvidenceQueryInput, now = new Date()): Promise<EvidenceQueryResult> {
  const [policy, overrides] = await Promise.all([loadPolicy(db(), input.projectId), loadQuestionOverrides(db(), input.projectId)]);
  const question = resolveQuestion(input.question, applyCannedOverrides(cannedQuestionsFor(policy), overrides));
  const sessionIds = input.scope?.sessionIds;
  if (sessionIds?.some((id) => !isUuid(id))) throw new AppError("NOT_FOUND", "Session not found");
  const sessions = await db().session.findMany({
    where: { projectId: input.projectId, ...(sessionIds ? { id: { in: sessionIds } } : {}) },
    select: { id: true, cwd: true },
  });
  if (sessionIds && sessions.length !== new Set(sessionIds).size) throw new AppError("NOT_FOUND", "Session not found");

  const spans: QuestionSpan[] = [];
  for (const session of sessions) spans.push(...(await questionSpans(input.projectId, session.id, now)));
  const scope = {
    sessions: sessions.map((s): ScopeSession => ({ id: s.id, ...(s.cwd ? { cwd: s.cwd } : {}) })),
    ...(input.scope?.from ? { from: input.scope.from } : {}),
    ...(input.scope?.to ? { to: input.scope.to } : {}),
  };
  const answer = answerQuestion(question, scope, spans);
  await attachCitedBytes(answer);
  return { ...answer, question, sessionsInScope: sessions.length };
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

async function questionSpans(projectId: string, sessionId: string, now: Date): Promise<QuestionSpan[]> {
  const statuses = await sessionSpanStatuses(db(), projectId, sessionId, now);
  const ids = statuses.map((s) => s.id);
  const [atoms, originals, rows, links] = await Promise.all([
    loadAtoms(db(), sessionId, ids),
    loadOriginalFacts(db(), sessionId, ids),
    db().span.findMany({ where: { sessionId }, select: { id: true, sha256: true, toolName: true } }),
    db().summaryLink.findMany({ where: { sessionId }, select: { summarySpanId: true, replacedSpanId: true, dropped: true } }),
  ]);
  const facts = new Map(rows.map((r) => [r.id, r]));
  const seqById = new Map(statuses.map((s) => [s.id, s.seq]));
  const droppedBySpan = new Map(links.map((l) => [l.replacedSpanId, l.dropped as unknown as KindCount[]]));
  const replacesBySummary = new Map<string, string[]>();
  for (const link of links) replacesBySummary.set(link.summarySpanId, [...(replacesBySummary.get(link.summarySpanId) ?? []), link.replacedSpanId]);

  const spans: QuestionSpan[] = [];
  for (const status of statuses) {
    const replaces = replacesBySummary.get(status.id);
    // A summary Custodian recorded has no seq of its own: it sits where the first span it replaced sat.
    const seq = status.seq ?? minSeq(replaces ?? [], seqById);
    if (seq === null) continue;
    const original = originals.get(status.id) ?? null;
    spans.push({
      id: status.id,
      sessionId,
      seq,
      kind: status.kind,
      class: status.class,
      transcriptState: status.transcriptState,
      provenance: status.provenance,
      originalRetrievable: isRetrievable(original, now),
      originalHeld: original !== null && original.present && original.hashMatches,
      atoms: atoms.get(status.id) ?? [],
      sha256: facts.get(status.id)!.sha256,
      toolName: facts.get(status.id)!.toolName ?? undefined,
      occurredAt: status.occurredAt,
      ...(status.transcriptState === "RECLAIMED_HONEST" ? { droppedByManifest: droppedBySpan.get(status.id) ?? [] } : {}),
      ...(replaces ? { replaces } : {}),
    });
  }
  return spans;
}

function minSeq(ids: string[], seqById: Map<string, number | null>): number | null {
  const seqs = ids.map((id) => seqById.get(id)).filter((s): s is number => typeof s === "number");
  return seqs.length > 0 ? Math.min(...seqs) : null;
}

/** Citations carry the verbatim bytes they point at, read from the held originals. */
async function attachCitedBytes(answer: QuestionAnswer): Promise<void> {
  const keys = [...new Set(answer.citations.map((c) => `${c.sessionId}/${c.spanId}`))];
  if (keys.length === 0) return;
  const originals = await db().spanOriginal.findMany({
    where: { OR: keys.map((k) => ({ sessionId: k.split("/")[0]!, spanId: k.split("/")[1]! })) },
    select: { spanId: true, bytes: true },
  });
  const bytes = new Map(originals.map((o) => [o.spanId, o.bytes]));
  const decoder = new TextDecoder("utf-8", { fatal: false });
  for (const citation of answer.citations) {
    const body = bytes.get(citation.spanId);
    if (!body) continue;
    citation.bytes = body.subarray(citation.byteStart, citation.byteEnd);
    citation.excerpt = decoder.decode(citation.bytes);
  }
}
