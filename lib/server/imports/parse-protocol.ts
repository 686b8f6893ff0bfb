/**
 * What the server and the import parser's worker thread (./parse-worker.ts) say to each other: the
 * job, handed over when the worker starts; then a window, the end or an error at a time, each
 * answered by a request for one more.
 */
import type { ImportEnd, ImportFormat, ImportWindow } from "@/lib/importers";

export interface ParseJob {
  /** The file's bytes (copied over), or a spooled file the worker reads a chunk at a time itself. */
  input: { bytes: Uint8Array } | { file: string; byteLength: number };
  format?: ImportFormat;
  windowSpans: number;
}

/** An error as it crosses the thread: its class's name, and the importer's code when it has one. */
export interface ParseFailure {
  name: string;
  message: string;
  code?: string;
}

export type ParseReply =
  | { type: "window"; window: ImportWindow }
  | { type: "end"; end: ImportEnd }
  | { type: "error"; error: ParseFailure };

/** The one message the server sends: take the next window (the worker reads that far ahead). */
export const MORE = "more";

/**
 * Windows the worker reads before the server has taken them: one being written while the next is
 * parsed keeps both threads busy, and memory holds a few windows, not the file's output.
 */
export const READ_AHEAD = 2;
