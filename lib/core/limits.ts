/**
 * The size limits every path into Custodian shares: a span body is capped the same whether it
 * arrives through the API, a transcript import, a compaction hook or OTLP, and a transcript record
 * is parsed only when it is no larger than one API request may be. Documented in docs/api.md
 * ("Limits") and docs/formats.md.
 */

/** Bytes of one span's body (decoded): the most any original Custodian keeps can hold. */
export const MAX_SPAN_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Bytes of one record of a transcript file (a JSON Lines line) that an importer parses: the API's
 * request body limit, so no record is ever parsed larger than a request may be. A longer record is
 * skipped unread (never decoded into one string or JSON value), with its line and size reported.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** How a skip over a limit begins, so reports, tests and readers can tell it from other skips. */
export const OVER_LIMIT = "over the size limit";

/** The reason a span body over MAX_SPAN_BODY_BYTES was not kept. */
export function bodyOverLimit(bytes: number): string {
  return `${OVER_LIMIT}: a span body of ${bytes} bytes exceeds the ${MAX_SPAN_BODY_BYTES}-byte limit on one span; not kept`;
}

/** The reason a record over MAX_RECORD_BYTES was skipped without being parsed. */
export function recordOverLimit(bytes: number): string {
  return `${OVER_LIMIT}: a record of ${bytes} bytes exceeds the ${MAX_RECORD_BYTES}-byte limit on one record; skipped unread`;
}

/**
 * The most of an original one read shows at once: the span page's excerpt and one page of the MCP
 * tool `get_original`. The rest is a link (the page) or the next page (MCP) away.
 */
export const ORIGINAL_PAGE_BYTES = 64 * 1024;

/**
 * Where a cut of UTF-8 bytes should end so that it does not split a character: `bytes.length`, or
 * the start of a character the cut would leave incomplete (at most 3 bytes back).
 */
export function utf8CutEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
