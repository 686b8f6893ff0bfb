export { listAuditLog } from "./read";
export { type Actor, SWEEPER, writeAudit, writeAudits } from "./write";
