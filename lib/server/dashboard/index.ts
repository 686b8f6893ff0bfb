export { FEED_SHOWS, type RefusalFeed, type RefusalFeedRow, type RefusalGroup, refusalFeed } from "./refusal-feed";
export { cellOriginals, getSessionOverview } from "./session-detail";
export {
  countSessionsAtRiskAndLost,
  listSessionPage,
  PAGE_SIZE,
  SESSION_SORTS,
  SESSION_STATES,
  type SessionListQuery,
  sessionListSql,
  sessionStateCountsSql,
} from "./session-list";
export { getSpanDetail } from "./span-detail";
export { requireSessionsOfProject } from "./span-project";
export { sessionNames } from "./session-names";
export { evidencePicker } from "./evidence-picker";
export { listSessionSpans, listSessionsPage } from "./api-reads";
export { listQueryParams, type RawSearchParams, withQuery } from "./list-query";
export { agentOf, parseSpanListQuery, SPAN_LIST_DEFAULTS, SPAN_SORTS, type SpanListQuery } from "./span-list-query";
export { REFUSAL_LIST_DEFAULTS, REFUSAL_PAGE_SIZE, type RefusalListQuery } from "./refusal-list";
export {
  IMPORT_LIST_DEFAULTS,
  IMPORT_STATUSES,
  type ImportListJson,
  type ImportListPage,
  type ImportListRow,
  importListJson,
  listImportPage,
} from "./import-list";
export { KEY_LIST_DEFAULTS, KEY_STATUSES, type KeyListRow, listKeyPage } from "./key-list";
export { encodeRefusalCursor, parseRefusalListQuery } from "./refusal-list";
export { refusalPageRead, refusalPageSql } from "./refusal-page";
export { importCountSql, importPageSql, parseImportListQuery } from "./import-list";
export { pageBySeq } from "./span-page-by-seq";
