/**
 * The one cap on a span's body, applied to every importer's spans where they are taken (see
 * SessionDraft.take): whatever the format, and however the importer built the body (some join or
 * re-encode it after the span was added), a span over MAX_SPAN_BODY_BYTES is not kept.
 */
import { bodyOverLimit, MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";

interface Taken {
  body: Uint8Array;
  sourceLine: number;
  dropped?: boolean;
}

/** What becomes of a record with a span over the cap. */
export interface OverLimitSink {
  /**
   * The span at `line` was not kept, for `reason`; `wholeRecord` when no other span of its record
   * is kept either (the record then counts as skipped, not used).
   */
  overLimit(line: number, reason: string, wholeRecord: boolean): void;
}

const RELEASED = new Uint8Array(0);

/** Drops the spans over the cap (their bodies released) and reports each with its size. */
export function dropOverLimit(spans: readonly Taken[], sink: OverLimitSink): void {
  const over = spans.filter((s) => !s.dropped && s.body.byteLength > MAX_SPAN_BODY_BYTES);
  if (over.length === 0) return;
  for (const span of over) span.dropped = true;
  const keptLines = new Set(spans.filter((s) => !s.dropped).map((s) => s.sourceLine));
  for (const span of over) {
    const reason = bodyOverLimit(span.body.byteLength);
    span.body = RELEASED;
    sink.overLimit(span.sourceLine, reason, !keptLines.has(span.sourceLine));
  }
}
