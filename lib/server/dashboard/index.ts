export { FEED_SHOWS, refusalFeed, type RefusalFeed } from "./refusal-feed";
export { getSessionOverview } from "./session-detail";
export { listSessionPage, PAGE_SIZE, SESSION_SORTS, SESSION_STATES, type SessionListQuery, sessionListSql } from "./session-list";
export { getSpanDetail } from "./span-detail";
export { requireSessionsOfProject } from "./span-project";
export { evidencePicker } from "./evidence-picker";
export { listSessionSpans, listSessionsPage } from "./api-reads";
export { projectAuditLog } from "./audit-log";
