/**
 * The vocabulary of Custodian's domain core (see docs/design.md, "Vocabulary").
 * Pure data shapes only: every module in lib/evidence builds on these, and nothing here does I/O.
 */

export const EVIDENTIAL_CLASSES = ["NARRATIVE", "STRUCTURED", "SIDE_EFFECTING"] as const;
export type EvidentialClass = (typeof EVIDENTIAL_CLASSES)[number];

/** Strongest first; `provenanceWeakness` orders them for "the weakest among a summary's roots". */
export const PROVENANCE_STATUSES = ["DURABLE", "EXPIRING", "LOST", "NONE"] as const;
export type ProvenanceStatus = (typeof PROVENANCE_STATUSES)[number];

export const TRANSCRIPT_STATES = ["VERBATIM", "RECLAIMED", "RECLAIMED_HONEST", "PRESERVED"] as const;
export type TranscriptState = (typeof TRANSCRIPT_STATES)[number];

export const SPAN_KINDS = ["MESSAGE", "TOOL_CALL", "TOOL_RESULT", "SUMMARY"] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];

export const VERDICTS = ["RECLAIM", "RECLAIM_HONEST", "REFUSE"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const ATOM_KINDS = [
  "PATH",
  "COMMAND",
  "TOOL_CALL", // the tool's name; its arguments are TOOL_ARG atoms
  "TOOL_ARG",
  "NUMBER",
  "IDENTIFIER",
  "TIMESTAMP",
  "URL",
  "QUOTED",
  "NEGATION",
] as const;
export type AtomKind = (typeof ATOM_KINDS)[number];

/** What a committed mutation did. An atom that is the target of a mutation carries its effect. */
export const SIDE_EFFECT_KINDS = [
  "FILE_WRITE",
  "FILE_DELETE",
  "FILE_MOVE",
  "PERMISSION_CHANGE",
  "PACKAGE_INSTALL",
  "PACKAGE_REMOVE",
  "SERVICE_CONTROL",
  "NETWORK_MUTATION",
  "DB_WRITE",
  "VCS_COMMIT",
  "VCS_PUSH",
  "PRIVILEGE_ESCALATION",
  "PROCESS_SPAWN", // docker run and the like
  "SHELL_MUTATION", // a shell command that changes state in a way not named above
  "UNKNOWN_TOOL", // a tool not known to be read-only (MCP's destructiveHint default)
] as const;
export type SideEffectKind = (typeof SIDE_EFFECT_KINDS)[number];

/**
 * A verifiable fact found in a span's body. `byteStart`/`byteEnd` index the body bytes
 * (end exclusive): `body.subarray(byteStart, byteEnd)` decodes to exactly `text`.
 */
export interface Atom {
  kind: AtomKind;
  text: string;
  /** Paths absolute, timestamps ISO 8601 UTC, numbers with their unit, ids lower-cased... */
  normalized: string;
  byteStart: number;
  byteEnd: number;
  /** Set when this atom is the target of a committed mutation (the path written, the package installed). */
  effect?: SideEffectKind;
  /** True when the atom sits inside a negation ("did not write /etc/hosts"): it is not evidence of the act. */
  negated?: boolean;
  /** For TOOL_ARG atoms: the argument's name. */
  argName?: string;
  /**
   * With `effect`: the classification rule that assigned it (e.g. "shell.redirect", "tool.write"),
   * so a classification can explain itself from the atoms alone.
   */
  rule?: string;
}

/** Hints a runtime may give beside the body; they guide interpretation, never replace the bytes. */
export interface SpanInput {
  body: Uint8Array;
  kind: SpanKind;
  role?: string;
  toolName?: string;
  /** The tool's arguments as parsed JSON, when the runtime reports them. */
  toolInput?: unknown;
  exitCode?: number;
  /** Working directory, for making relative paths absolute. */
  cwd?: string;
  /** Home directory for ~ expansion; defaults to a conventional one when unknown. */
  homeDir?: string;
  /** MCP tool annotations, when the runtime reports them. */
  toolAnnotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

/** Why a span got its class, in terms a person can check in the UI. */
export interface ClassReason {
  class: EvidentialClass;
  /** Stable rule id, e.g. "tool.write", "shell.redirect", "atoms.structured", "tool.unknown". */
  rule: string;
  /** Human-readable explanation. */
  detail: string;
  /** Indexes into the span's atom list that triggered the rule, if any. */
  atomIndexes?: number[];
}

export interface Classification {
  class: EvidentialClass;
  reasons: ClassReason[];
  effects: SideEffectKind[];
}

export interface SpanAnalysis {
  atoms: Atom[];
  classification: Classification;
}

/** `{spanId, byteStart, byteEnd, sha256}`: what a summary carries for what it replaced. */
export interface ProvenancePointer {
  spanId: string;
  byteStart: number;
  byteEnd: number;
  sha256: string;
}

/** What a summary says it dropped: every atom its text lacks, at least by kind and count. */
export interface OmissionManifest {
  omitted: Array<{ kind: AtomKind; count: number; values?: string[] }>;
}

export interface CandidateSummary {
  text: string;
  pointers: ProvenancePointer[];
  omissions?: OmissionManifest;
}

/** The state of a span's original as Custodian holds it. */
export interface OriginalFacts {
  present: boolean;
  /** sha256 of the held bytes equals the span's recorded sha256. */
  hashMatches: boolean;
  expiresAt: Date | null;
  pinned: boolean;
}

export interface RetentionPolicy {
  /** How long evidence must stay answerable after the span occurred. */
  evidenceHorizonDays: number;
  /** TTL of originals per class, in days. */
  ttlDays: Record<EvidentialClass, number>;
  /**
   * False only when the project declares no evidence-demanding workloads (no audit, replay,
   * contradiction checks or re-execution): then structured spans reclaim without a durable pointer.
   */
  evidenceWorkloads: boolean;
  /** Path prefixes and commands that count as "system config" for the canned question. */
  systemConfigPrefixes: string[];
}

export interface Cell {
  class: EvidentialClass;
  provenance: ProvenanceStatus;
}
