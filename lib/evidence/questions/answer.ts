/**
 * Answering an evidence question (docs/design.md, "Evidence questions"): exactly one of
 * - YES with citations to verbatim bytes, from spans that are verbatim or whose original is
 *   retrievable; never from a summary's text;
 * - NO only when nothing matched, every span in scope is evidentially complete and no seq is missing;
 * - INSUFFICIENT_EVIDENCE otherwise, naming the spans that block a proof of absence.
 */
import { formatKindCounts } from "../manifest";
import { outcomeInDoubt, TOOL_OUTCOMES, type ToolOutcome } from "../outcomes";
import { EVIDENTIAL_CLASSES, type Atom, type AtomKind, type EvidentialClass } from "../types";
import {
  compilePredicate,
  matchAtom,
  spanQualifies,
  type CompiledPredicate,
  type EvidencePredicate,
  type EvidenceQuestion,
} from "./predicate";
import { completenessCase } from "./completeness";
import { unknownToolBlocks, unknownToolReason } from "./unknown-effects";
import { inSeqRange, inTimeRange, seqGaps, type QuestionScope, type SeqGap } from "./scope";
import type { AnswerKind, Blocker, Citation, QuestionAnswer, QuestionSpan, SkippedRecordRef, UnblockAct } from "./answer-types";

export type {
  AnswerKind,
  Blocker,
  CitedBytes,
  Citation,
  QuestionAnswer,
  QuestionSpan,
  SkippedRecordRef,
  UnblockAct,
} from "./answer-types";

/** Accepts a question, one predicate, or a list of predicates (any of which may match). */
export function answerQuestion(
  question: EvidenceQuestion | EvidencePredicate | readonly EvidencePredicate[],
  scope: QuestionScope,
  spans: readonly QuestionSpan[],
): QuestionAnswer {
  const predicates = compileQuestion(question);
  const byId = new Map(spans.map((s) => [s.id, s]));
  const bySession = groupBySession(spans);
  const citations: Citation[] = [];
  const blockers: Blocker[] = [];
  const gaps: SeqGap[] = [];
  const skipped: SkippedRecordRef[] = [];
  let checkedSpans = 0;
  let spansInScope = 0;

  for (const session of scope.sessions) {
    const picked = session.spanIds ? new Set(session.spanIds) : null;
    const inSession = (bySession.get(session.id) ?? []).filter(
      (s) => inSeqRange(session, s.seq) && (!picked || picked.has(s.id)),
    );
    gaps.push(...seqGaps(session, inSession));
    for (const r of session.skippedRecords ?? []) skipped.push({ sessionId: session.id, ...r });
    const ordered = inSession.filter((s) => inTimeRange(scope, s.occurredAt)).sort((a, b) => a.seq - b.seq);

    spansInScope += ordered.length;
    for (const span of ordered) {
      const judged = judgeSpan(span, predicates, session.cwd, byId);
      if (judged.checked) checkedSpans++;
      citations.push(...judged.citations);
      if (judged.blocker) blockers.push(judged.blocker);
    }
  }
  return concludeAnswer(citations, blockers, checkedSpans, gaps, skipped, spansInScope === 0);
}

/** The question's predicates, compiled once. */
export function compileQuestion(
  question: EvidenceQuestion | EvidencePredicate | readonly EvidencePredicate[],
): CompiledPredicate[] {
  return toPredicates(question).map(compilePredicate);
}

/** What one span in scope contributes to an answer. */
export interface SpanJudgement {
  /** Its atoms were checked (it counts in `checkedSpans`). */
  checked: boolean;
  citations: Citation[];
  blocker: Blocker | null;
}

/**
 * One span in scope, judged: a summary can only block (when its text claims what the question asks
 * and the originals behind it cannot be checked; `byId` must hold every span of its lineage); a
 * checkable span cites its matching atoms; any other span may block. `answerQuestion` is this over
 * every span in scope, in seq order; callers that find the spans worth judging some other way (an
 * index) must keep that order and count the checked spans they did not judge.
 */
export function judgeSpan(
  span: QuestionSpan,
  predicates: readonly CompiledPredicate[],
  cwd: string | undefined,
  byId: ReadonlyMap<string, QuestionSpan>,
): SpanJudgement {
  if (span.kind === "SUMMARY") return { checked: false, citations: [], blocker: unbackedClaim(span, predicates, cwd, byId) };
  if (isCheckable(span)) {
    const found = citeMatches(span, predicates, cwd);
    let blocker: Blocker | null = null;
    if (found.citations.length === 0 && found.undecidable)
      blocker = blockerFor(span, "the session's working directory is unknown, so its writes cannot be placed", false);
    else if (found.citations.length === 0 && matchesBarOutcome(span, predicates, cwd))
      blocker = { ...blockerFor(span, doubtReason(span), false), outcomeInDoubt: true };
    else if (found.citations.length === 0 && unknownToolBlocks(span, predicates))
      blocker = { ...blockerFor(span, unknownToolReason(span.toolName), false), unknownEffect: true };
    return { checked: true, citations: found.citations, blocker };
  }
  return { checked: false, citations: [], blocker: uncheckableBlocker(span, predicates) };
}

/**
 * The answer from everything found: YES on any citation; NO only with a complete scope (no
 * blockers, no seq gaps, no skipped records) that held at least one span; else INSUFFICIENT_EVIDENCE.
 */
export function concludeAnswer(
  citations: Citation[],
  blockers: Blocker[],
  checkedSpans: number,
  gaps: SeqGap[],
  skippedRecords: SkippedRecordRef[] = [],
  noSpansInScope = false,
): QuestionAnswer {
  const completeness = completenessCase({ blockers, gaps, skippedRecords, noSpansInScope });
  const scopeComplete = completeness.holds;
  const answer: AnswerKind = citations.length > 0 ? "YES" : scopeComplete ? "NO" : "INSUFFICIENT_EVIDENCE";
  return {
    answer,
    citations,
    blockers,
    checkedSpans,
    scopeComplete,
    gaps,
    skippedRecords,
    noSpansInScope,
    completeness,
    outcomes: tallyOutcomes(citations),
  };
}

/**
 * Distinct calls among the citations by outcome. A result cited right after its cited call (the
 * next seq, same outcome) is the same attempt; every other cited span with an outcome is one.
 */
export function tallyOutcomes(citations: readonly Citation[]): Partial<Record<ToolOutcome, number>> {
  const spans = new Map<string, Citation>();
  for (const c of citations) if (c.outcome !== undefined) spans.set(`${c.sessionId}/${c.spanId}`, c);
  const calls = new Set<string>();
  for (const c of spans.values()) if (c.spanKind === "TOOL_CALL") calls.add(`${c.sessionId}#${c.seq}`);
  const tally: Partial<Record<ToolOutcome, number>> = {};
  for (const c of spans.values()) {
    if (c.spanKind === "TOOL_RESULT" && calls.has(`${c.sessionId}#${c.seq - 1}`)) continue;
    tally[c.outcome!] = (tally[c.outcome!] ?? 0) + 1;
  }
  return Object.fromEntries(TOOL_OUTCOMES.filter((o) => tally[o]).map((o) => [o, tally[o]]));
}

/** Classes whose spans, when they cannot be checked, may block a proof of absence for these predicates. */
export function blockingClasses(predicates: readonly CompiledPredicate[]): EvidentialClass[] {
  return EVIDENTIAL_CLASSES.filter((cls) => predicates.some((p) => classCanHold(p, cls)));
}

/**
 * Its atoms can be trusted as evidence: the span is still verbatim in the transcript, or it was
 * replaced but a pointer leads to an original that is retrievable now. Summaries never are.
 */
export function isCheckable(span: QuestionSpan): boolean {
  if (span.kind === "SUMMARY") return false;
  if (span.transcriptState === "VERBATIM" || span.transcriptState === "PRESERVED") return true;
  return span.originalRetrievable && (span.provenance === "DURABLE" || span.provenance === "EXPIRING");
}

function citeMatches(
  span: QuestionSpan,
  predicates: readonly CompiledPredicate[],
  cwd: string | undefined,
): { citations: Citation[]; undecidable: boolean } {
  const citations: Citation[] = [];
  const seen = new Set<string>();
  let undecidable = false;
  predicates.forEach((p, predicateIndex) => {
    if (!spanQualifies(p, span)) return;
    if (p.wholeCall && span.kind === "TOOL_CALL") {
      // The call itself is the evidence: its whole body, whether or not it spells the tool's name.
      const call = wholeCallAtom(span);
      const key = `${call.byteStart}:${call.byteEnd}`;
      if (!seen.has(key)) {
        seen.add(key);
        citations.push(cite(span, call, predicateIndex));
      }
      return;
    }
    for (const atom of span.atoms) {
      const m = matchAtom(p, atom, cwd);
      if (m === "UNDECIDABLE") undecidable = true;
      if (m !== "MATCH") continue;
      const key = `${atom.byteStart}:${atom.byteEnd}`;
      if (seen.has(key)) continue;
      seen.add(key);
      citations.push(cite(span, atom, predicateIndex));
    }
  });
  return { citations, undecidable };
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * A TOOL_CALL span's whole body as what a citation cites: its bytes when given, else its length
 * (the excerpt is then the tool's name, or the name its body spells).
 */
function wholeCallAtom(span: QuestionSpan): Atom {
  const name = span.toolName ?? span.atoms.find((a) => a.kind === "TOOL_CALL")?.text ?? "";
  return { kind: "TOOL_CALL", text: name, normalized: name, byteStart: 0, byteEnd: span.body?.length ?? span.byteLength ?? 0 };
}

function cite(span: QuestionSpan, atom: Atom, predicateIndex: number): Citation {
  const c: Citation = {
    sessionId: span.sessionId,
    spanId: span.id,
    seq: span.seq,
    byteStart: atom.byteStart,
    byteEnd: atom.byteEnd,
    sha256: span.sha256,
    excerpt: atom.text,
    atomKind: atom.kind,
    predicateIndex,
    spanKind: span.kind,
  };
  if (atom.effect !== undefined) c.effect = atom.effect;
  if (span.outcome !== undefined) c.outcome = span.outcome;
  if (span.exitCode !== undefined) c.exitCode = span.exitCode;
  if (span.body) cutCitedBytes(c, span.body);
  return c;
}

/**
 * Gives a citation the bytes it cites, cut from its span's body, and its excerpt as those bytes
 * read as text: the engine does so where it judges a span with its body, an indexed answer for the
 * citations it keeps. The caller gives only a body that hashes to the span's sha256. A range
 * outside the body cuts none.
 */
export function cutCitedBytes(c: Citation, body: Uint8Array): void {
  if (c.byteStart < 0 || c.byteEnd > body.length || c.byteStart > c.byteEnd) return;
  // A copy, so a citation does not keep a multi-megabyte body alive.
  c.bytes = body.slice(c.byteStart, c.byteEnd);
  c.excerpt = decoder.decode(c.bytes);
}

/**
 * The span would match a predicate that filters on outcomes but for its call's outcome, and that
 * outcome is in doubt (UNKNOWN, or FAILED against the runtime's exit 0): the call may have ended
 * as asked, so its outcome cannot support a NO.
 */
function matchesBarOutcome(span: QuestionSpan, predicates: readonly CompiledPredicate[], cwd: string | undefined): boolean {
  if (!outcomeInDoubt(span)) return false;
  const open = predicates.filter((p) => p.outcomes !== null).map((p) => ({ ...p, outcomes: null }));
  return open.length > 0 && citeMatches(span, open, cwd).citations.length > 0;
}

function doubtReason(span: QuestionSpan): string {
  const said =
    span.outcome === "UNKNOWN"
      ? "its call's outcome is unknown (no result, still running, or signals that disagree)"
      : `its call is recorded ${span.outcome} although the runtime reported exit ${span.exitCode} (the output reports an error)`;
  return `${said}, so it may have ended as the question asks`;
}

/**
 * The atom kinds whose omission by an honest summary lets an unchecked span of this class block
 * (uncheckableBlocker): those some predicate that can match in the class finds relevant. A reader
 * that decides blocking by index (counting blockers in SQL) asks this rather than restating it.
 */
export function relevantOmissions(predicates: readonly CompiledPredicate[], cls: EvidentialClass): AtomKind[] {
  const kinds = new Set<AtomKind>();
  for (const p of predicates) if (classCanHold(p, cls)) for (const k of p.relevantKinds) kinds.add(k);
  return [...kinds];
}

/** Only spans of a class that can hold a match can block (side-effect questions: side-effecting only). */
function classCanHold(p: CompiledPredicate, cls: EvidentialClass): boolean {
  if (cls === "NARRATIVE") return false;
  return !p.onSideEffects || cls === "SIDE_EFFECTING";
}

function uncheckableBlocker(span: QuestionSpan, predicates: readonly CompiledPredicate[]): Blocker | null {
  const dropped = span.transcriptState === "RECLAIMED_HONEST" ? span.droppedByManifest : undefined;
  const blocks = predicates.some(
    (p) =>
      classCanHold(p, span.class) && (dropped === undefined || dropped.some((d) => d.count > 0 && p.relevantKinds.has(d.kind))),
  );
  if (!blocks) return null;
  let why: string;
  if (span.provenance === "NONE") why = "no provenance pointer links its summary to the original";
  else if (span.provenance === "LOST" || !span.originalRetrievable) why = "its original is lost (expired, deleted or corrupt)";
  else why = `its original is ${span.provenance.toLowerCase()} but not retrievable`;
  const what =
    dropped === undefined
      ? "and the summary that replaced it does not say what it dropped"
      : `and its honest summary dropped ${formatKindCounts(dropped)}`;
  return blockerFor(span, `${why}, ${what}`, true);
}

function blockerFor(span: QuestionSpan, reason: string, withDropped: boolean): Blocker {
  const held = span.originalHeld ?? span.originalRetrievable;
  // A pointer is needed for held bytes to count; without one no act of ours links them back.
  const unblockBy: UnblockAct = held && span.provenance !== "NONE" && !isCheckable(span) ? "pin" : "none";
  return {
    sessionId: span.sessionId,
    spanId: span.id,
    seq: span.seq,
    class: span.class,
    provenance: span.provenance,
    transcriptState: span.transcriptState,
    dropped: withDropped ? [...(span.droppedByManifest ?? [])] : [],
    originalHeld: held,
    unblockBy,
    reason,
  };
}

/**
 * A summary's text is never evidence, but it can be a reason to doubt a NO: when its text
 * mentions something the question asks about and the originals it stands for cannot be checked,
 * absence cannot be proven.
 */
function unbackedClaim(
  summary: QuestionSpan,
  predicates: readonly CompiledPredicate[],
  cwd: string | undefined,
  byId: ReadonlyMap<string, QuestionSpan>,
): Blocker | null {
  const claims = predicates.some(
    (p) =>
      classCanHold(p, summary.class) &&
      spanQualifies(p, summary, true) &&
      summary.atoms.some((a) => matchAtom(p, a, cwd, true) !== "NO_MATCH"),
  );
  if (!claims || isBacked(summary, byId)) return null;
  return {
    ...blockerFor(
      summary,
      "its text mentions what the question asks about, and the originals it replaced cannot be checked",
      false,
    ),
    originalHeld: false,
    unblockBy: "none",
  };
}

/** Every original the summary transitively replaced is checkable (or was narrative). */
function isBacked(summary: QuestionSpan, byId: ReadonlyMap<string, QuestionSpan>): boolean {
  if (!summary.replaces || summary.replaces.length === 0) return false;
  const seen = new Set<string>([summary.id]);
  const todo = [...summary.replaces];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const s = byId.get(id);
    if (!s) return false;
    if (s.kind === "SUMMARY") {
      if (!s.replaces || s.replaces.length === 0) return false;
      todo.push(...s.replaces);
    } else if (!isCheckable(s) && s.class !== "NARRATIVE") {
      return false;
    }
  }
  return true;
}

function toPredicates(q: EvidenceQuestion | EvidencePredicate | readonly EvidencePredicate[]): readonly EvidencePredicate[] {
  if (Array.isArray(q)) return q as readonly EvidencePredicate[];
  if ("anyOf" in q && Array.isArray((q as EvidenceQuestion).anyOf)) return (q as EvidenceQuestion).anyOf;
  return [q as EvidencePredicate];
}

function groupBySession(spans: readonly QuestionSpan[]): Map<string, QuestionSpan[]> {
  const out = new Map<string, QuestionSpan[]>();
  for (const s of spans) {
    const list = out.get(s.sessionId);
    if (list) list.push(s);
    else out.set(s.sessionId, [s]);
  }
  return out;
}
