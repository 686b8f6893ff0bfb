export { appendSpans, batchRows, type IngestedSpan, unstorableFields, upsertSession } from "./append";
export { atomRowsFor, atomRowsInsert, type BatchRows, copyTexts, executeBulk } from "./bulk-insert";
