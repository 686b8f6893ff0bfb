/**
 * What every transcript importer produces: sessions of normalised spans, ready for the same ingest
 * path runtimes use, plus the compactions the transcript records, and the lines it could not read.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { SpanKind } from "@/lib/evidence/types";
import type { TranscriptBytes } from "./source";

export const IMPORT_FORMATS = ["claude-code", "codex", "openhands", "otel-genai", "swe-agent", "aider", "gemini-cli"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportedSpan {
  /** Position in the session's transcript: 0, 1, 2, ... in file order after pairing. */
  seq: number;
  kind: SpanKind;
  role?: string;
  toolName?: string;
  /** The tool's arguments as parsed JSON, when the format has them. */
  toolInput?: unknown;
  exitCode?: number;
  /**
   * TOOL_CALL spans: what became of the call, from its paired result and the format's own fields
   * (exit codes, error flags, approval decisions); a call with nothing to go on is UNKNOWN. A
   * TOOL_RESULT paired with its call by sourceId carries the call's outcome too.
   */
  outcome?: ToolOutcome;
  /**
   * Which agent produced the span: absent for the session's main agent; a subagent's id (and its
   * type, e.g. Claude Code's Task `subagent_type`) when a subagent did the work.
   */
  agentId?: string;
  agentType?: string;
  /** Working directory the record reports for this call (for making relative paths absolute). */
  cwd?: string;
  occurredAt: Date;
  /** The verbatim bytes the span stands for (for a tool call: its arguments as the file had them). */
  body: Uint8Array;
  /**
   * 1-based line (JSONL) or record index (JSON) the span came from, for error reports: the event's
   * index in an OpenHands array, the span's ordinal in an OTLP document.
   */
  sourceLine: number;
  /** The format's own id for the record (uuid, call id, event id), if any. */
  sourceId?: string;
}

/** A compaction the transcript records: a summary span that replaced earlier spans. */
export interface ImportedCompaction {
  /** seq of the SUMMARY span holding the summary text. */
  summarySeq: number;
  /**
   * seqs of the spans it replaced that are present in this file. Empty when the replaced spans
   * are not in the file: the summary then has no provenance (NONE).
   */
  replacedSeqs: number[];
  occurredAt: Date;
}

export interface ImportedSession {
  externalId: string;
  runtime: ImportFormat;
  title?: string;
  cwd?: string;
  startedAt?: Date;
  spans: ImportedSpan[];
  compactions: ImportedCompaction[];
  /**
   * Records of the file skipped while reading this session (or the whole file, when the record
   * could not be tied to a session): the session is incomplete, so no question may answer NO over it.
   */
  skipped: ImportIssue[];
}

/** A line (or record) the importer skipped, and why. Never silent, never fatal to the rest. */
export interface ImportIssue {
  /** Same numbering as ImportedSpan.sourceLine; 0 when the issue concerns the whole document. */
  line: number;
  message: string;
}

/**
 * Every record of a file is used (became or merged into a span or a session's metadata), ignored
 * (its type is on the format's documented list of non-evidence records) or skipped (with its line
 * and reason in `issues`): read == used + ignored + skipped. For JSON Lines a record is a non-blank
 * line; for a JSON document, an element of its record array; for text formats, a block the format
 * defines (see each importer).
 */
export interface ImportRecords {
  read: number;
  used: number;
  ignored: number;
  skipped: number;
  /** Ignored records by type, e.g. `{"file-history-snapshot": 12}`. */
  ignoredByType: Record<string, number>;
}

export interface ImportResult {
  format: ImportFormat;
  sessions: ImportedSession[];
  /** Skipped records and warnings about records that were still used, by line. */
  issues: ImportIssue[];
  records: ImportRecords;
}

/** A window's part of one session: spans with their final seqs, and the compactions they summarise. */
export interface SessionPart {
  externalId: string;
  runtime: ImportFormat;
  /** The session's working directory, when known by the end of this window. */
  cwd?: string;
  spans: ImportedSpan[];
  /** Compactions whose summary span is in this part; replaced seqs may be of earlier windows. */
  compactions: ImportedCompaction[];
}

/**
 * A stretch of the file's output, cut where no later record can change it: windows, concatenated,
 * equal the whole file's sessions. Seqs continue from one window to the next.
 */
export interface ImportWindow {
  sessions: SessionPart[];
  /** Bytes of the file read when the window closed, for progress; absent when the reader cannot tell. */
  bytesRead?: number;
}

/** What is known of a session only at the end of the file. */
export type SessionHeader = Omit<ImportedSession, "spans" | "compactions">;

/** The end of a windowed import: every session with spans, in file order, and the file's accounting. */
export interface ImportEnd {
  format: ImportFormat;
  sessions: SessionHeader[];
  issues: ImportIssue[];
  records: ImportRecords;
}

/** Windows as the reader reads on; the generator returns the file's end. */
export type ImportWindows = Generator<ImportWindow, ImportEnd, void>;

export interface TranscriptImporter {
  format: ImportFormat;
  /**
   * How strongly the start of the file looks like this format, from 0 (not at all) to 1
   * (unmistakable). Detection asks every importer and takes the highest score of at least 0.5.
   */
  detect(head: string): number;
  parse(bytes: Uint8Array): ImportResult;
  /**
   * Formats whose files grow large read in windows of at least `windowSpans` spans, so memory
   * holds one window's spans, not the file's, and take the file in chunks when it is one (see
   * TranscriptSource). The others are one window of the whole file (see importWindows).
   */
  windows?(bytes: TranscriptBytes, windowSpans: number): ImportWindows;
}
