import { randomUUID } from "node:crypto";
import type { DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

export interface Actor {
  type: "USER" | "API_KEY" | "SYSTEM";
  id?: string;
  /** What people read in the audit log: an email, a key's prefix, "sweeper". */
  label: string;
}

export const SWEEPER: Actor = { type: "SYSTEM", label: "sweeper" };

export interface AuditEntry {
  projectId: string | null;
  actor: Actor;
  act: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  at?: Date;
}

/** Appends one row to the audit log. Call it with the transaction of the act it records. */
export async function writeAudit(tx: DbTx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({ data: auditRow(entry) });
}

/** Many audit rows in one statement, for acts done in bulk (the sweeper). */
export async function writeAudits(tx: DbTx, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await tx.auditLog.createMany({ data: entries.map(auditRow) });
}

function auditRow(entry: AuditEntry) {
  return {
    id: randomUUID(),
    projectId: entry.projectId,
    actorType: entry.actor.type,
    actorId: entry.actor.id ?? null,
    actorLabel: entry.actor.label,
    act: entry.act,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: entry.before === undefined ? Prisma.JsonNull : (entry.before as Prisma.InputJsonValue),
    after: entry.after === undefined ? Prisma.JsonNull : (entry.after as Prisma.InputJsonValue),
    reason: entry.reason ?? null,
    ...(entry.at ? { at: entry.at } : {}),
  };
}
