export { appendSpans, batchRows, type IngestedSpan, unstorableFields, upsertSession } from "./append";
export { decodeStoredToolInput, encodeToolInput } from "./storable";
export { atomRowsFor, atomRowsInsert, type BatchRows, copyTexts, executeBulk } from "./bulk-insert";
