export { listAuditLog } from "./read";
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
