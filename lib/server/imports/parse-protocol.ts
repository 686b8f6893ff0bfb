/**
 * What the server and the import parser's worker thread (./parse-worker.ts) say to each other: the
 * job, handed over when the worker starts; then, for a file, a window, the end or an error at a
 * time, each answered by a request for one more; for an OTLP conversation, its mapping or an error.
 */
import type { ImportEnd, ImportFormat, ImportResult, ImportWindow } from "@/lib/importers";

export interface FileJob {
  kind: "file";
  /** The file's bytes (copied over), or a spooled file the worker reads a chunk at a time itself. */
  input: { bytes: Uint8Array } | { file: string; byteLength: number };
  format?: ImportFormat;
  windowSpans: number;
}

export interface OtlpJob {
  kind: "otlp";
  /** An ExportTraceServiceRequest in its JSON mapping, as UTF-8 bytes. */
  request: Uint8Array;
}

export type ParseJob = FileJob | OtlpJob;

/** An error as it crosses the thread: its class's name, and the importer's code when it has one. */
export interface ParseFailure {
  name: string;
  message: string;
  code?: string;
}

export type ParseReply =
  | { type: "window"; window: ImportWindow }
  | { type: "end"; end: ImportEnd }
  | { type: "otlp"; result: ImportResult }
  | { type: "error"; error: ParseFailure };

/** The one message the server sends: take the next window (the worker reads that far ahead). */
export const MORE = "more";

/**
 * Windows the worker reads before the server has taken them: one being written while the next is
 * parsed keeps both threads busy, and memory holds a few windows, not the file's output.
 */
export const READ_AHEAD = 2;
