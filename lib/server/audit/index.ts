export {
  type Actor,
  type AuditAct,
  type AuditEntry,
  type AuditEvent,
  CLI,
  recordAudit,
  SWEEPER,
  writeAudit,
  writeAudits,
} from "./write";
export { type ChainReport, describeChainReport, verifyAuditChain } from "./verify";
export { actInWords, actorTypeInWords, KNOWN_ACTS } from "./acts";
export { AUDIT_CSV_HEADER, auditCsvCells, csvCell, csvRow } from "./csv";
export { AUDIT_EXPORT_CHUNK, auditCsvChunks, auditCsvFileName } from "./export";
export { type AuditPage, type AuditRow, listAuditPage } from "./page";
export {
  AUDIT_PAGE_SIZE,
  AUDIT_SORTS,
  type AuditQuery,
  auditQueryParams,
  parseAuditQuery,
  type RawSearchParams,
} from "./page-query";
export { type AuditChange, type AuditEventView, type ChangeValue, type ListItem, presentAuditEvent } from "./present";
