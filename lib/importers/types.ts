/**
 * What every transcript importer produces: sessions of normalised spans, ready for the same ingest
 * path runtimes use, plus the compactions the transcript records, and the lines it could not read.
 */
import type { SpanKind } from "@/lib/evidence/types";

export const IMPORT_FORMATS = ["claude-code", "codex", "openhands", "otel-genai"] as const;
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
}

/** A line (or record) the importer skipped, and why. Never silent, never fatal to the rest. */
export interface ImportIssue {
  /** Same numbering as ImportedSpan.sourceLine; 0 when the issue concerns the whole document. */
  line: number;
  message: string;
}

export interface ImportResult {
  format: ImportFormat;
  sessions: ImportedSession[];
  issues: ImportIssue[];
}

export interface TranscriptImporter {
  format: ImportFormat;
  /** True when the start of the file looks like this format. */
  detect(head: string): boolean;
  parse(bytes: Uint8Array): ImportResult;
}
