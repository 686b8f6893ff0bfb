/**
 * The gate (docs/design.md, "The gate"): may a compactor replace these spans with its summary?
 * A pure function of span facts, the candidate summary, the policy and the clock.
 *
 * | class \ provenance | DURABLE | EXPIRING | LOST   | NONE   |
 * | NARRATIVE          | reclaim | reclaim  | reclaim| reclaim|
 * | STRUCTURED         | reclaim | refuse   | refuse | refuse |
 * | SIDE_EFFECTING     | reclaim | refuse   | refuse | refuse |
 *
 * In a refusing cell a lossy-but-honest summary (a pointer to the span, and a manifest naming
 * every atom its text lacks) gets RECLAIM_HONEST. The verdict rests on the two axes only, never
 * on a scalar such as age x size x recency.
 *
 * `evidenceWorkloads = false` (the project declares no audit, replay, contradiction checks or
 * re-execution) makes STRUCTURED reclaimable in every column. SIDE_EFFECTING stays refused: the
 * switch is about workloads that read evidence, but a committed mutation is the one thing an
 * incident review will ask about whatever the project declared, and docs/design.md names only
 * structured spans as released by it.
 */
import { checkManifestCounts, formatKindCounts, countByKind, manifestCounts, type ManifestCheck } from "./manifest";
import { provenanceStatusMs } from "./provenance";
import { prepareSummaryText, splitKeptDropped, type SummaryText } from "./summary-text";
import {
  EVIDENTIAL_CLASSES,
  PROVENANCE_STATUSES,
  type Atom,
  type AtomKind,
  type CandidateSummary,
  type Cell,
  type EvidentialClass,
  type OriginalFacts,
  type ProvenancePointer,
  type ProvenanceStatus,
  type RetentionPolicy,
  type Verdict,
} from "./types";

export interface GateSpan {
  id: string;
  class: EvidentialClass;
  atoms: readonly Atom[];
  /**
   * A provenance pointer links the replacement to this span. Used when no summary is passed;
   * when a summary is passed, the summary's own pointers decide, because after replacement only
   * the summary's pointer links it to the original (the seed's "loss was in the link").
   */
  hasPointer: boolean;
  original: OriginalFacts | null;
  occurredAt: Date;
  /** The span's recorded sha256; when given, a summary pointer counts only if it carries it. */
  sha256?: string;
}

export interface GateDecision {
  spanId: string;
  verdict: Verdict;
  cell: Cell;
  /** Human-readable, for refusal events and the UI. */
  reason: string;
  /** REFUSE only: the atoms the replacement would lose (all atoms when no summary text was given). */
  atomsAtRisk?: readonly Atom[];
  /** Present when a summary was judged for honesty (refusing cells only). */
  manifestCheck?: ManifestCheck;
}

export interface GateRequest {
  spans: readonly GateSpan[];
  summary?: CandidateSummary;
  policy: RetentionPolicy;
  now: Date;
}

/** A candidate summary with everything the gate derives from it computed once per request. */
export interface PreparedSummary {
  readonly prepared: true;
  readonly summary: CandidateSummary;
  readonly text: SummaryText;
  readonly pointersBySpan: ReadonlyMap<string, readonly ProvenancePointer[]>;
  /** Null when the summary has no manifest (then it can never be honest). */
  readonly manifestCounts: ReadonlyMap<AtomKind, number> | null;
}

export function prepareSummary(summary: CandidateSummary): PreparedSummary {
  const pointersBySpan = new Map<string, ProvenancePointer[]>();
  for (const p of summary.pointers) {
    const list = pointersBySpan.get(p.spanId);
    if (list) list.push(p);
    else pointersBySpan.set(p.spanId, [p]);
  }
  return {
    prepared: true,
    summary,
    text: prepareSummaryText(summary.text),
    pointersBySpan,
    manifestCounts: summary.omissions ? manifestCounts(summary.omissions) : null,
  };
}

/** Decides every span of a request; the summary is prepared once for all of them. */
export function evaluateGate(req: GateRequest): GateDecision[] {
  const prepared = req.summary ? prepareSummary(req.summary) : undefined;
  return req.spans.map((span) => decide(span, prepared, req.policy, req.now));
}

/**
 * One span's verdict. Without a summary it allocates only the decision object, so it can run
 * millions of times per second; pass a `PreparedSummary` when deciding many spans against one.
 */
export function decide(
  span: GateSpan,
  summary: CandidateSummary | PreparedSummary | null | undefined,
  policy: RetentionPolicy,
  now: Date,
): GateDecision {
  const prep = summary == null ? undefined : isPrepared(summary) ? summary : prepareSummary(summary);
  const pointer = prep ? summaryPointsTo(prep, span) : span.hasPointer;
  const status = provenanceStatusMs(pointer, span.original, span.occurredAt.getTime(), policy, now.getTime());
  const cls = span.class;
  const cell = CELLS[cls][status];

  if (cls === "NARRATIVE") return { spanId: span.id, verdict: "RECLAIM", cell, reason: REASONS.narrative[status] };
  if (status === "DURABLE") return { spanId: span.id, verdict: "RECLAIM", cell, reason: REASONS.durable[cls] };
  if (cls === "STRUCTURED" && !policy.evidenceWorkloads) {
    return { spanId: span.id, verdict: "RECLAIM", cell, reason: REASONS.noWorkloads[status] };
  }

  // A refusing cell.
  if (!prep) return { spanId: span.id, verdict: "REFUSE", cell, reason: REASONS.refuse[cls][status], atomsAtRisk: span.atoms };
  return judgeSummary(span, prep, pointer, cell);
}

function judgeSummary(span: GateSpan, prep: PreparedSummary, pointer: boolean, cell: Cell): GateDecision {
  const { dropped } = splitKeptDropped(span.atoms, prep.text);
  const manifestCheck = checkManifestCounts(dropped, prep.manifestCounts, pointer);
  const where = `${CLASS_LABEL[cell.class]} span, ${STATUS_PHRASE[cell.provenance]}`;
  const droppedText = formatKindCounts(countByKind(dropped));
  if (manifestCheck.honest) {
    return {
      spanId: span.id,
      verdict: "RECLAIM_HONEST",
      cell,
      reason:
        `${where}; the summary is lossy but honest: it carries a pointer to the original and its ` +
        `omission manifest names everything its text drops (${droppedText}).`,
      manifestCheck,
    };
  }
  let why: string;
  if (!manifestCheck.hasPointer) why = "the summary carries no pointer to this span";
  else if (!manifestCheck.hasManifest) why = `the summary drops ${droppedText} and has no omission manifest`;
  else why = `the summary's manifest does not name ${formatKindCounts(manifestCheck.missing)} that its text drops`;
  return {
    spanId: span.id,
    verdict: "REFUSE",
    cell,
    reason: `${where}; ${why}. Keep it verbatim or send a lossy-but-honest summary.`,
    atomsAtRisk: dropped,
    manifestCheck,
  };
}

function isPrepared(s: CandidateSummary | PreparedSummary): s is PreparedSummary {
  return (s as PreparedSummary).prepared === true;
}

function summaryPointsTo(prep: PreparedSummary, span: GateSpan): boolean {
  const pointers = prep.pointersBySpan.get(span.id);
  if (!pointers) return false;
  if (span.sha256 === undefined) return true;
  const want = span.sha256.toLowerCase();
  // A pointer whose hash is not the span's points at other bytes: it links to nothing we hold.
  return pointers.some((p) => p.sha256.toLowerCase() === want);
}

/** Shared, frozen cell objects: the hot path allocates none. */
const CELLS = Object.fromEntries(
  EVIDENTIAL_CLASSES.map((c) => [
    c,
    Object.fromEntries(PROVENANCE_STATUSES.map((p) => [p, Object.freeze({ class: c, provenance: p })])),
  ]),
) as Record<EvidentialClass, Record<ProvenanceStatus, Cell>>;

const CLASS_LABEL: Record<EvidentialClass, string> = {
  NARRATIVE: "Narrative",
  STRUCTURED: "Structured",
  SIDE_EFFECTING: "Side-effecting",
};

const STATUS_PHRASE: Record<ProvenanceStatus, string> = {
  DURABLE: "its original is retrievable until its evidence horizon",
  EXPIRING: "its original expires before its evidence horizon",
  LOST: "its original is gone (expired, deleted or corrupt)",
  NONE: "no provenance pointer links the replacement to it",
};

function perStatus(f: (s: ProvenanceStatus) => string): Record<ProvenanceStatus, string> {
  return Object.fromEntries(PROVENANCE_STATUSES.map((s) => [s, f(s)])) as Record<ProvenanceStatus, string>;
}

/** Reasons are built once: the no-summary path returns these strings without formatting. */
const REASONS = {
  narrative: perStatus(
    (s) => `Narrative span (no evidence atoms that matter), ${STATUS_PHRASE[s]}: lossy replacement is allowed.`,
  ),
  durable: Object.fromEntries(
    EVIDENTIAL_CLASSES.map((c) => [c, `${CLASS_LABEL[c]} span, ${STATUS_PHRASE.DURABLE}: lossy replacement is allowed.`]),
  ) as Record<EvidentialClass, string>,
  noWorkloads: perStatus(
    (s) => `Structured span, ${STATUS_PHRASE[s]}: reclaimable because the policy declares no evidence-demanding workloads.`,
  ),
  refuse: Object.fromEntries(
    EVIDENTIAL_CLASSES.map((c) => [
      c,
      perStatus(
        (s) =>
          `${CLASS_LABEL[c]} span, ${STATUS_PHRASE[s]}: a lossy summary would make its evidence unrecoverable. ` +
          "Keep it verbatim or send a lossy-but-honest summary.",
      ),
    ]),
  ) as Record<EvidentialClass, Record<ProvenanceStatus, string>>,
};
