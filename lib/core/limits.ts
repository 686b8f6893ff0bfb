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
