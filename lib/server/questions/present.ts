/**
 * An evidence answer as every reader is given it: the API, the Evidence page (at once or through a
 * job) and the MCP tool all present an answer through `presentAnswer`, so the same question asked
 * any of these ways answers field for field the same. Exports are signed documents with a form of
 * their own (export-document.ts): they list every citation and blocker, unpaged.
 */
import type { KindCount } from "@/lib/evidence/manifest";
import { describeOutcomes, type ToolOutcome } from "@/lib/evidence/outcomes";
import type { AnswerKind, Blocker, CompletenessCase, SeqGap, SkippedRecordRef, UnblockAct } from "@/lib/evidence/questions";
import type { AtomKind, EvidentialClass, ProvenanceStatus, SpanKind } from "@/lib/evidence/types";
import type { EvidenceQueryResult } from "./ask";
import { citationJson } from "./export";
import { ANSWER_WINDOW } from "./window";

/** Which rows of a list to present: from `offset`, at most `limit`. */
export interface ListWindow {
  offset: number;
  limit: number;
}

/** The rows of each list to present; a list not named starts at 0 with `DEFAULT_PAGE_ROWS`. */
export interface AnswerPages {
  citations?: ListWindow;
  blockers?: ListWindow;
}

/** Rows of each list presented when the asker names no window: those an answer keeps by default. */
export const DEFAULT_PAGE_ROWS = ANSWER_WINDOW;

/**
 * How far into its lists an answer can be read: rows past this are counted, never listed. A page
 * past the engine's first rows (ANSWER_WINDOW) is asked keeping as many as it reaches, which costs
 * memory in proportion: this bounds it.
 */
export const LIST_REACH = 110_000;

/** Where a presented page of a list starts, and the offset of the next page (null: none follows). */
export interface PageJson {
  offset: number;
  next: number | null;
}

export type CitationJson = ReturnType<typeof citationJson> & {
  atomKind: AtomKind;
  spanKind?: SpanKind;
  outcome: ToolOutcome | null;
};

/** A blocking span: where it is, its cell, why it blocks, what its summary dropped, whether its original is held, what unblocks it. */
export interface BlockerJson {
  sessionId: string;
  spanId: string;
  seq: number;
  class: EvidentialClass;
  provenance: ProvenanceStatus;
  dropped: KindCount[];
  originalHeld: boolean;
  unblockBy: UnblockAct;
  reason: string;
  /** Present (true) only when the span blocks because its call's outcome is unknown or contradicted. */
  outcomeInDoubt?: true;
  /** Present (true) only when the span blocks because it calls a tool whose effects are not known. */
  unknownEffect?: true;
}

/** An evidence answer as presented: a page of each list, with every count exact. */
export interface EvidenceAnswerJson {
  answer: AnswerKind;
  question: { id: string; title: string };
  citations: CitationJson[];
  blockers: BlockerJson[];
  citationCount: number;
  blockerCount: number;
  pages: { citations: PageJson; blockers: PageJson };
  gaps: SeqGap[];
  checkedSpans: number;
  sessionsInScope: number;
  scopeComplete: boolean;
  skippedRecords: SkippedRecordRef[];
  noSpansInScope: boolean;
  completeness: CompletenessCase;
  outcomes: Partial<Record<ToolOutcome, number>>;
  outcomeSummary: string;
}

export function blockerJson(b: Blocker): BlockerJson {
  return {
    sessionId: b.sessionId,
    spanId: b.spanId,
    seq: b.seq,
    class: b.class,
    provenance: b.provenance,
    dropped: b.dropped.map((d) => ({ kind: d.kind, count: d.count })),
    originalHeld: b.originalHeld,
    unblockBy: b.unblockBy,
    reason: b.reason,
    ...(b.outcomeInDoubt ? { outcomeInDoubt: true as const } : {}),
    ...(b.unknownEffect ? { unknownEffect: true as const } : {}),
  };
}

const windowOf = (window: ListWindow | undefined): ListWindow => window ?? { offset: 0, limit: DEFAULT_PAGE_ROWS };

/**
 * The engine's rows an answer must keep for these pages: its default window, or as far as the
 * farther page reaches, up to LIST_REACH.
 */
export function windowFor(pages: AnswerPages): number {
  const end = (w: ListWindow | undefined) => Math.min(LIST_REACH, windowOf(w).offset + windowOf(w).limit);
  return Math.max(ANSWER_WINDOW, end(pages.citations), end(pages.blockers));
}

function page<T, J>(rows: T[], count: number, window: ListWindow | undefined, json: (row: T) => J) {
  const { offset, limit } = windowOf(window);
  const end = offset + limit;
  return {
    rows: rows.slice(offset, end).map(json),
    page: { offset, next: end < Math.min(count, LIST_REACH) ? end : null },
  };
}

/** The answer as presented, with the page of each list asked for (its rows must be kept: asked with `windowFor`). */
export function presentAnswer(result: EvidenceQueryResult, pages: AnswerPages = {}): EvidenceAnswerJson {
  const citations = page(result.citations, result.citationCount, pages.citations, (c) => citationJson(c) as CitationJson);
  const blockers = page(result.blockers, result.blockerCount, pages.blockers, blockerJson);
  return {
    answer: result.answer,
    question: { id: result.question.id, title: result.question.title },
    citations: citations.rows,
    blockers: blockers.rows,
    citationCount: result.citationCount,
    blockerCount: result.blockerCount,
    pages: { citations: citations.page, blockers: blockers.page },
    gaps: result.gaps.map((g) => ({ sessionId: g.sessionId, fromSeq: g.fromSeq, toSeq: g.toSeq })),
    checkedSpans: result.checkedSpans,
    sessionsInScope: result.sessionsInScope,
    scopeComplete: result.scopeComplete,
    skippedRecords: result.skippedRecords.map((r) => ({ sessionId: r.sessionId, line: r.line, reason: r.reason })),
    noSpansInScope: result.noSpansInScope,
    completeness: result.completeness,
    outcomes: result.outcomes,
    outcomeSummary: describeOutcomes(result.outcomes),
  };
}

/**
 * Whether a stored job's answer has the presented shape. Answers kept before there was one
 * presenter (a job is kept a day) lack `pages`; their readers are asked to ask again.
 */
export function isPresentedAnswer(value: unknown): value is EvidenceAnswerJson {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<EvidenceAnswerJson>;
  return (
    typeof v.answer === "string" &&
    Array.isArray(v.citations) &&
    Array.isArray(v.blockers) &&
    typeof v.pages?.citations?.offset === "number" &&
    typeof v.pages?.blockers?.offset === "number" &&
    typeof v.sessionsInScope === "number"
  );
}
