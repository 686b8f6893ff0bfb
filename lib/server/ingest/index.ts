export { appendSpans } from "./append";
export { type BatchSession, batchRows } from "./batch-rows";
export { upsertSession } from "./session";
export type { IngestedSpan } from "./span-submission";
export { unstorableFields } from "./text-fields";
export { decodeStoredToolInput, encodeToolInput } from "./storable";
export { ingestPolicy, rowsAhead } from "./prepare";
export { atomRowsFor, atomRowsInsert, type BatchRows, type CopyText, copyTexts, executeBulk } from "./bulk-insert";
export { supersedeEndMarks } from "./partial-end";
