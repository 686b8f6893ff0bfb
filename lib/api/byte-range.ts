/**
 * The one byte range a `Range` request header may ask of an original (RFC 9110 section 14): a single
 * `bytes=first-last`, `bytes=first-` or `bytes=-suffix`. A header of another unit, or of several
 * ranges, is ignored (the whole original is sent, as the RFC allows); one that starts past the end
 * is 416 with the length in `Content-Range`.
 */
import { AppError } from "@/lib/core/errors";

/** Start and end (exclusive) of the bytes to send. */
export interface ByteRange {
  start: number;
  end: number;
}

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/** The range asked for, or null for the whole original. */
export function requestedRange(header: string | null, length: number): ByteRange | null {
  const match = header ? SINGLE.exec(header.trim()) : null;
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    // The last `suffix` bytes; a suffix of 0 asks for nothing that exists.
    const suffix = Number(last);
    if (suffix === 0) throw unsatisfiable(length);
    return { start: Math.max(0, length - suffix), end: length };
  }
  const start = Number(first);
  const end = last === "" ? length : Math.min(length, Number(last) + 1);
  if (last !== "" && Number(last) < start) return null; // invalid: ignored, as the RFC says
  if (start >= length) throw unsatisfiable(length);
  return { start, end };
}

function unsatisfiable(length: number): AppError {
  return new AppError("RANGE_NOT_SATISFIABLE", `The range starts past the original's end (${length} bytes)`, {
    fields: [{ path: "Range", message: `the original has ${length} bytes` }],
    headers: { "Content-Range": `bytes */${length}` },
    details: { byteLength: length },
  });
}
