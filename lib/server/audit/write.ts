import { randomUUID } from "node:crypto";
import type { RoleName } from "@/lib/core/permissions";
import { type DbTx, db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

export interface Actor {
  type: "USER" | "API_KEY" | "SYSTEM";
  id?: string;
  /** What people read in the audit log: an email, a key's prefix, "sweeper". */
  label: string;
}

export const SWEEPER: Actor = { type: "SYSTEM", label: "sweeper" };
/** Acts done from a terminal (`npm run custodian -- ...`): whoever can run it holds the database. */
export const CLI: Actor = { type: "SYSTEM", label: "cli" };

/** A JSON object as stored in `before` / `after` (a retention policy, a canned-question edit). */
type JsonObject = { [key: string]: unknown };

/**
 * Every act the audit log records, with the shape of its target, before and after. A new act is
 * added here first; a caller cannot write an act that is not listed, nor one with the wrong shape.
 */
export type AuditEvent =
  | {
      act: "original.pin";
      targetType: "span";
      before: { pinned: false };
      after: { pinned: true };
    }
  | {
      act: "original.unpin";
      targetType: "span";
      before: { pinned: true };
      after: { pinned: false };
    }
  | {
      act: "original.extend" | "original.shorten";
      targetType: "span";
      before: { expiresAt: Date | null };
      after: { expiresAt: Date };
    }
  | {
      /** One act over many originals of a project: every span it changed, in one row. */
      act: "originals.pin";
      targetType: "project";
      before: { pinned: false };
      after: { pinned: true; spans: Array<{ sessionId: string; spanId: string }> };
    }
  | {
      act: "originals.extend";
      targetType: "project";
      before: { spans: Array<{ sessionId: string; spanId: string; expiresAt: Date }> };
      after: { expiresAt: Date; spans: Array<{ sessionId: string; spanId: string }> };
    }
  | {
      act: "original.sweep";
      targetType: "span";
      before: { expiresAt: Date | null; present: true };
      after: { present: false; movedToLost: string[] };
    }
  | {
      act: "original.hash_mismatch";
      targetType: "span";
      before: { verified: true };
      after: { verified: false; movedToLost: string[] };
    }
  | {
      /** A saved policy version (after: the policy, its version and the field-by-field changes); a rollback saves an earlier one again. */
      act: "policy.update" | "policy.rollback";
      targetType: "project";
      before: JsonObject;
      after: JsonObject;
    }
  | {
      act: "api_key.create";
      targetType: "api_key";
      before?: undefined;
      after: { name: string; prefix: string; role: RoleName };
    }
  | {
      act: "api_key.revoke";
      targetType: "api_key";
      before: { revokedAt: null };
      after: { revokedAt: Date };
    }
  | {
      act: "user.invite";
      targetType: "user";
      before?: undefined;
      after: { email: string; role: RoleName };
    }
  | {
      act: "user.role";
      targetType: "user";
      before: { role: RoleName };
      after: { role: RoleName };
    }
  | {
      /** A person's password changed, by themself or by an instance admin; the password is never recorded. */
      act: "user.password";
      targetType: "user";
      before?: undefined;
      after: { by: "self" | "admin"; sessionsEnded: number };
    }
  | {
      /** A person signed out every session but the one they asked from. */
      act: "user.sessions_end";
      targetType: "user";
      before?: undefined;
      after: { sessionsEnded: number };
    }
  | {
      /** A project created by an instance admin (or the CLI). */
      act: "project.create";
      targetType: "project";
      before?: undefined;
      after: { slug: string; name: string };
    }
  | {
      /** A person made a member of a project with a role there (invited when they had no account: created). */
      act: "member.add";
      targetType: "user";
      before?: undefined;
      after: { email: string; role: RoleName; created: boolean };
    }
  | {
      act: "member.role";
      targetType: "user";
      before: { role: RoleName };
      after: { role: RoleName };
    }
  | {
      act: "member.remove";
      targetType: "user";
      before: { email: string; role: RoleName };
      after?: undefined;
    }
  | {
      /** The audit log itself taken out as CSV: who took which part of it (the filters as given). */
      act: "audit.export";
      targetType: "project";
      before?: undefined;
      after: { format: "csv"; filters: Record<string, string | number> };
    }
  | {
      /** An evidence answer downloaded from the Evidence page: which question, over which scope, as what. */
      act: "evidence.export";
      targetType: "project";
      before?: undefined;
      after: {
        question: { id: string; title: string; anyOf: unknown[] };
        scope: { sessionIds?: string[]; from?: Date; to?: Date };
        format: "json" | "csv" | "print";
        answer: string;
        citations: number;
        /** The sealed export document's hash (what `custodian verify-export` checks). */
        exportSha256?: string;
      };
    }
  | {
      /** An evidence question saved under a title for the project (the retention what-if judges it too), or deleted. */
      act: "question.save";
      targetType: "saved_question";
      before?: undefined;
      after: { title: string; predicate: JsonObject };
    }
  | {
      act: "question.delete";
      targetType: "saved_question";
      before: { title: string; predicate: JsonObject };
      after?: undefined;
    }
  | {
      /** A committed reclamation (asked of the gate, or observed in an import): what it replaced. */
      act: "reclamation.commit";
      targetType: "session";
      before?: undefined;
      after: {
        reclamationId: string;
        observed: boolean;
        summarySpanId: string | null;
        verdicts: Record<string, number>;
        replacedSpanIds: string[];
        refusedSpanIds: string[];
      };
    };

export type AuditAct = AuditEvent["act"];

/** One row of the audit log: who (always), which project, the act and its shapes, why, when. */
export type AuditEntry = AuditEvent & {
  projectId: string | null;
  actor: Actor;
  targetId: string;
  reason?: string | null;
  at?: Date;
};

/** Appends one row to the audit log. Call it with the transaction of the act it records. */
export async function writeAudit(tx: DbTx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({ data: auditRow(entry) });
}

/** Appends one row for an act that writes nothing else (an export): its own transaction. */
export async function recordAudit(entry: AuditEntry): Promise<void> {
  await writeAudit(db(), entry);
}

/** Many audit rows in one statement, for acts done in bulk (the sweeper). */
export async function writeAudits(tx: DbTx, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await tx.auditLog.createMany({ data: entries.map(auditRow) });
}

function auditRow(entry: AuditEntry) {
  if (!entry.actor?.label) throw new Error(`The audit event ${entry.act} has no actor`);
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
