export { appendSpans, batchRows, type IngestedSpan, unstorableFields, upsertSession } from "./append";
export { ingestPolicy, rowsAhead } from "./prepare";
export { atomRowsFor, atomRowsInsert, type BatchRows, type CopyText, copyTexts, executeBulk } from "./bulk-insert";
