/** The shapes the question engine reads (spans) and answers with (citations, blockers, the answer). */
import type { KindCount } from "../manifest";
import type { ToolOutcome } from "../outcomes";
import type { Atom, AtomKind, EvidentialClass, ProvenanceStatus, SideEffectKind, SpanKind, TranscriptState } from "../types";
import type { CompletenessCase } from "./completeness";
import type { SeqGap } from "./scope";

/** A span as the question engine sees it: facts only, the atoms already extracted. */
export interface QuestionSpan {
  id: string;
  sessionId: string;
  seq: number;
  kind: SpanKind;
  /** For a summary: the class of its lineage (the highest of its roots). */
  class: EvidentialClass;
  transcriptState: TranscriptState;
  provenance: ProvenanceStatus;
  /** The original is present, intact and within its TTL (or pinned). */
  originalRetrievable: boolean;
  /**
   * The bytes are still stored and intact even if not retrievable under the policy (TTL passed,
   * not yet swept): a pin would make them evidence again. Defaults to `originalRetrievable`.
   */
  originalHeld?: boolean;
  /** Atoms that can be checked: from the live verbatim text or a retrievable original (for a summary, from its text). */
  atoms: readonly Atom[];
  sha256: string;
  /** The span's bytes, for citation excerpts. */
  body?: Uint8Array;
  /** The body's length in bytes: what a citation of a whole call spans when the body is not given. */
  byteLength?: number;
  toolName?: string;
  /** The outcome of the call the span is or belongs to (TOOL_CALL and its paired TOOL_RESULT). */
  outcome?: ToolOutcome;
  exitCode?: number;
  occurredAt?: Date;
  /** What an honest summary admitted dropping from this span, by kind. */
  droppedByManifest?: KindCount[];
  /** Summaries: the spans they replaced, to tell whether a claim in their text is backed by originals. */
  replaces?: string[];
}

/** Where a citation points and what it quotes: what every view of an answer keeps of it. */
export type CitedBytes = Pick<Citation, "sessionId" | "spanId" | "seq" | "byteStart" | "byteEnd" | "sha256" | "excerpt">;

export interface Citation {
  sessionId: string;
  spanId: string;
  seq: number;
  byteStart: number;
  byteEnd: number;
  sha256: string;
  /** The cited bytes decoded (invalid UTF-8 replaced), or the atom's text when no body was given. */
  excerpt: string;
  /** The verbatim bytes, when the span's body was given. */
  bytes?: Uint8Array;
  atomKind: AtomKind;
  effect?: SideEffectKind;
  /** Which of the question's predicates matched. */
  predicateIndex: number;
  /** The cited span's kind, and the outcome and exit code of the call it is or belongs to. */
  spanKind?: SpanKind;
  outcome?: ToolOutcome;
  exitCode?: number;
}

/** A record of an imported file that was skipped for this session: the session is incomplete. */
export interface SkippedRecordRef {
  sessionId: string;
  /** The record's line (or index) in the imported file; 0 for the whole file. */
  line: number;
  reason: string;
}

export type UnblockAct = "pin" | "extend" | "none";

export interface Blocker {
  sessionId: string;
  spanId: string;
  seq: number;
  class: EvidentialClass;
  provenance: ProvenanceStatus;
  transcriptState: TranscriptState;
  /** What the span's summary admitted dropping, by kind; empty when unknown or nothing. */
  dropped: KindCount[];
  /** The original's bytes are still stored and intact. */
  originalHeld: boolean;
  /**
   * The act that would make the span checkable. "pin" when the bytes are still held: a legal
   * hold cannot lapse while the review runs (an extension would also do, and the UI may offer
   * it); "none" when nothing Custodian holds can help.
   */
  unblockBy: UnblockAct;
  reason: string;
  /**
   * The span is checkable and would match but for its call's outcome, which is in doubt (UNKNOWN,
   * or FAILED against the runtime's exit 0): it blocks a NO to a question that filters on outcomes.
   */
  outcomeInDoubt?: true;
  /**
   * The span is a call of a tool whose effects are not known (UNKNOWN_TOOL): it blocks a NO to a
   * question about side effects, whatever the effects asked about (questions/unknown-effects.ts).
   */
  unknownEffect?: true;
}

export type AnswerKind = "YES" | "NO" | "INSUFFICIENT_EVIDENCE";

export interface QuestionAnswer {
  answer: AnswerKind;
  citations: Citation[];
  /** Spans that could have matched but cannot be checked. Listed with YES too, for information. */
  blockers: Blocker[];
  /** Spans whose atoms were checked (verbatim or original retrievable; summaries excluded). */
  checkedSpans: number;
  /** No blockers, no seq gaps, no skipped records and some span in scope: a NO would be a proof of absence. */
  scopeComplete: boolean;
  gaps: SeqGap[];
  /** Records its sessions' imports skipped: each makes a proof of absence impossible. */
  skippedRecords: SkippedRecordRef[];
  /** Nothing at all was in scope: never a NO (docs/design.md, "never NO over an empty scope"). */
  noSpansInScope: boolean;
  /** Each condition a NO rests on, whether it holds and what blocks it: NO only when all hold. */
  completeness: CompletenessCase;
  /**
   * How the cited calls went: distinct calls among the citations by outcome (a call and its
   * result count once), e.g. {FAILED: 2, SUCCEEDED: 1} for "3 attempts: 2 failed, 1 succeeded".
   */
  outcomes: Partial<Record<ToolOutcome, number>>;
}
