export { appendSpans, batchRows, type IngestedSpan, unstorableFields, upsertSession } from "./append";
export { decodeStoredToolInput, encodeToolInput } from "./storable";
export { ingestPolicy, rowsAhead } from "./prepare";
export { atomRowsFor, atomRowsInsert, type BatchRows, type CopyText, copyTexts, executeBulk } from "./bulk-insert";
