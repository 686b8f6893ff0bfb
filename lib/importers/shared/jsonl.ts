/**
 * JSON Lines reading that never loses a line silently: each line is decoded and parsed on its
 * own, and a line that cannot be (invalid UTF-8, bad JSON, a final line cut off mid-write, a
 * value that is not an object) becomes an issue with its 1-based line number.
 */
import { MAX_RECORD_BYTES, recordOverLimit } from "@/lib/core/limits";
import type { RecordSink } from "./builder";
import { chunksOf, concat, type TranscriptBytes } from "./source";
import { bomLength, decodeUtf8, isRecord } from "./text";

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  /** The line's bytes (without its line break), for slicing values verbatim. */
  bytes: Uint8Array;
  value: Record<string, unknown>;
  /** Byte offset just past the line (and its line break): how much of the file is read with it. */
  end: number;
}

/**
 * Splits on LF (tolerating CRLF). Every line is reported to `sink` as read, and as skipped when it
 * cannot be parsed. A blank line is no record, but no runtime's writer leaves one between records:
 * one there may be a record whose bytes were lost, so it is reported as skipped once a record
 * follows it (blank lines at the end of the file are passed over: nothing was written after them). Lines are decoded
 * and parsed one at a time, as the caller takes them: a reader that handles each line and keeps
 * only what it made of it holds one line's parsed JSON at a time, not the whole file's.
 *
 * A line longer than `maxRecordBytes` is skipped unread (see MAX_RECORD_BYTES): its bytes are
 * counted as they pass and never put together, decoded or parsed, so a file with one huge record
 * costs a scan of it, not a string and a JSON value of its size.
 */
export function* eachJsonLine(input: TranscriptBytes, sink: RecordSink, maxRecordBytes = MAX_RECORD_BYTES): Generator<JsonLine> {
  // Bytes in memory are one chunk. A line within a chunk is a view of it; a line across chunks
  // (a file read in chunks) is put together, so memory holds a chunk and the line being read.
  let carry: Uint8Array[] = [];
  let carried = 0;
  /** The line being read is past the limit: its bytes are only counted from now on. */
  let overlong = false;
  let offset = 0; // of the current chunk in the file
  let line = 1;
  /** Blank lines not yet reported: skipped once a record follows them. */
  let blanks: number[] = [];
  const flush = () => {
    for (const blank of blanks) {
      sink.read(blank);
      sink.skip(blank, BLANK_BETWEEN_RECORDS);
    }
    blanks = [];
  };
  for (const chunk of chunksOf(input)) {
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(0x0a, start);
      if (lf < 0) break;
      let raw = chunk.subarray(start, lf);
      const length = carried + raw.byteLength;
      if (overlong || length > maxRecordBytes) {
        flush();
        skipOverlong(line, length, sink);
        overlong = false;
        raw = EMPTY;
      } else if (carried > 0) raw = concat([...carry, raw], length);
      carry = [];
      carried = 0;
      if (raw.length > 0 && raw[raw.length - 1] === 0x0d) raw = raw.subarray(0, raw.length - 1);
      const parsed = raw === EMPTY ? undefined : parseLine(raw, line, false, sink, offset + lf + 1, flush);
      if (parsed === BLANK) blanks.push(line);
      else if (parsed) yield parsed;
      start = lf + 1;
      line++;
    }
    if (start < chunk.length) {
      carried += chunk.length - start;
      if (carried > maxRecordBytes) {
        overlong = true;
        carry = [];
      } else carry.push(chunk.subarray(start));
    }
    offset += chunk.length;
  }
  if (carried === 0) return;
  if (overlong) {
    flush();
    return skipOverlong(line, carried, sink);
  }
  let raw = concat(carry, carried);
  if (raw[raw.length - 1] === 0x0d) raw = raw.subarray(0, raw.length - 1);
  const parsed = parseLine(raw, line, true, sink, offset, flush);
  if (parsed && parsed !== BLANK) yield parsed;
}

/** Every line at once, for readers that look ahead or go over the lines more than once. */
export function readJsonLines(bytes: Uint8Array, sink: RecordSink): JsonLine[] {
  return [...eachJsonLine(bytes, sink)];
}

const EMPTY = new Uint8Array(0);

/** A line holding only white space. */
const BLANK = Symbol("blank line");

export const BLANK_BETWEEN_RECORDS = "blank line between records (a record may have been lost here); line skipped";

function skipOverlong(line: number, bytes: number, sink: RecordSink): void {
  sink.read(line);
  sink.skip(line, recordOverLimit(bytes));
}

/** For a first look over the lines that reports nothing (the pass that reports comes after). */
export const UNREPORTED: RecordSink = { read() {}, skip() {} };

/** The line parsed; undefined when it is skipped; BLANK when it holds only white space (`flush` is called before any other line is reported). */
function parseLine(
  raw: Uint8Array,
  line: number,
  last: boolean,
  sink: RecordSink,
  end: number,
  flush: () => void,
): JsonLine | undefined | typeof BLANK {
  // A UTF-8 byte order mark may open the file; it is not part of the record.
  const bytes = line === 1 ? raw.subarray(bomLength(raw)) : raw;
  const text = decodeUtf8(bytes);
  if (text !== undefined && text.trim() === "") return BLANK;
  flush();
  if (text === undefined) {
    sink.read(line);
    sink.skip(line, "invalid UTF-8; line skipped");
    return undefined;
  }
  sink.read(line);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    sink.skip(
      line,
      last ? `truncated final line (not complete JSON: ${detail}); line skipped` : `malformed JSON (${detail}); line skipped`,
    );
    return undefined;
  }
  if (!isRecord(value)) {
    sink.skip(line, `expected a JSON object, found ${Array.isArray(value) ? "an array" : typeof value}; line skipped`);
    return undefined;
  }
  return { line, bytes, value, end };
}
