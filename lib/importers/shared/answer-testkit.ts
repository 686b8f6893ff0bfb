/**
 * For tests: an import's sessions asked a question as the engine asks it once they are stored,
 * every original held (spans verbatim, summaries backed by the spans they replaced), each session's
 * skipped records in its scope. What an import gives the engine, without the database between.
 */
import {
  answerQuestion,
  type EvidencePredicate,
  type EvidenceQuestion,
  type QuestionAnswer,
  type QuestionSpan,
} from "@/lib/evidence/questions";
import { analyzeImportedSpan } from "./testkit";
import type { ImportResult } from "./types";

const SHA = "0".repeat(64);

export function questionSpansOf(result: ImportResult): QuestionSpan[] {
  const out: QuestionSpan[] = [];
  for (const session of result.sessions) {
    const replacedBy = new Map(session.compactions.map((c) => [c.summarySeq, c.replacedSeqs]));
    for (const span of session.spans) {
      const { atoms, classification } = analyzeImportedSpan(span, session);
      const q: QuestionSpan = {
        id: `${session.externalId}#${span.seq}`,
        sessionId: session.externalId,
        seq: span.seq,
        kind: span.kind,
        class: classification.class,
        transcriptState: "VERBATIM",
        provenance: "DURABLE",
        originalRetrievable: true,
        atoms,
        sha256: SHA,
        body: span.body,
        occurredAt: span.occurredAt,
      };
      if (span.toolName !== undefined) q.toolName = span.toolName;
      if (span.outcome !== undefined) q.outcome = span.outcome;
      if (span.exitCode !== undefined) q.exitCode = span.exitCode;
      const replaced = replacedBy.get(span.seq);
      if (replaced) q.replaces = replaced.map((seq) => `${session.externalId}#${seq}`);
      out.push(q);
    }
  }
  return out;
}

/** The question over every session of the import, as stored: seqs from 0, skipped records kept. */
export function answerOverImport(
  result: ImportResult,
  question: EvidenceQuestion | EvidencePredicate | readonly EvidencePredicate[],
): QuestionAnswer {
  const sessions = result.sessions.map((s) => ({
    id: s.externalId,
    ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
    seqFrom: 0,
    seqTo: s.spans.length - 1,
    skippedRecords: s.skipped.map((i) => ({ line: i.line, reason: i.message })),
  }));
  return answerQuestion(question, { sessions }, questionSpansOf(result));
}
