export { listAuditLog } from "./read";
export { type Actor, type AuditAct, type AuditEntry, type AuditEvent, SWEEPER, writeAudit, writeAudits } from "./write";
