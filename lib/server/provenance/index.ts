export { BULK_LIMIT, type BulkOutcome, extendOriginals, type OriginalKey, pinOriginals } from "./bulk-acts";
export { pinOriginal, setOriginalExpiry, unpinOriginal } from "./operator-acts";
export { loadOriginalFacts, recordDamaged, recordDamagedSpans } from "./original-facts";
export { type HeldOriginal, heldOriginal, ORIGINAL_CHUNK_BYTES, originalChunks, readOriginalBytes } from "./originals";
export { gridQueries, lineageStatuses, sessionGrid, type SpanRowFacts, type SpanStatus, spanStatusOf } from "./span-status";
export {
  sessionTimeline,
  timelineHeld,
  timelineCount,
  type TimelineFilter,
  timelineQuery,
  type TimelineSpan,
  timelineTotal,
} from "./timeline";
export { atRiskFunction, slackBeforeHorizon, spanAtRisk } from "./at-risk-sql";
export { REPLACED_RULE, replacedInTranscript, uncheckedFunction } from "./unchecked-sql";
export {
  EXPIRY_RULE,
  GRID_CODES,
  gridCodeFunction,
  goneWhateverTheClock,
  heldPastTtl,
  heldTtlAhead,
  originalFromSpan,
  retrievableWithPointer,
  STATUS_CODES,
  sqlTime,
  STATUS_RULE,
  statusConditions,
  ttlAheadSql,
  ttlPassedSql,
} from "./status-sql";
export { mayHoldNonDurableVerbatim } from "./verbatim-durable";
