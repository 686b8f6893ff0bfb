import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";
import { db, type DbTx, sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_POLICY, validatePolicy } from "@/lib/evidence/policy";
import {
  applyCannedOverrides,
  CANNED_QUESTION_IDS,
  cannedQuestionsFor,
  validatePredicate,
  type CannedQuestionId,
  type CannedQuestionOverrides,
  type EvidencePredicate,
  type EvidenceQuestion,
} from "@/lib/evidence/questions";
import type { Actor } from "@/lib/server/audit";
import { type PolicyColumns, policyFromRow } from "./policy-row";

export { policyFromRow, policyToRow } from "./policy-row";
import { savePolicyVersion } from "./versions";
import type { RetentionPolicy } from "@/lib/evidence/types";

type StoredPolicy = PolicyColumns & { cannedQuestions: Prisma.JsonValue };

/**
 * The project's stored policy row. Outside a transaction it is read on the pool without Prisma:
 * every question, hook and page reads it, and Prisma's query compiler spent 3 to 9 ms of CPU on
 * this one row (11 ms a request in the server's profile of an evidence question).
 */
async function storedPolicy(tx: DbTx, projectId: string): Promise<StoredPolicy | null> {
  if (tx !== db()) return tx.retentionPolicy.findUnique({ where: { projectId } });
  const [row] = await sqlRows<StoredPolicy>(Prisma.sql`
    select evidence_horizon_days as "evidenceHorizonDays", ttl_narrative_days as "ttlNarrativeDays",
           ttl_structured_days as "ttlStructuredDays", ttl_side_effecting_days as "ttlSideEffectingDays",
           evidence_workloads as "evidenceWorkloads", system_config_prefixes as "systemConfigPrefixes",
           canned_questions as "cannedQuestions"
      from retention_policy where project_id = ${projectId}::uuid`);
  return row ?? null;
}

/** The project's retention policy, or the defaults when it has not set one. */
export async function loadPolicy(tx: DbTx, projectId: string): Promise<RetentionPolicy> {
  const row = await storedPolicy(tx, projectId);
  return row ? policyFromRow(row) : DEFAULT_POLICY;
}

/**
 * The project's retention policy and its canned questions: the defaults for the policy, with the
 * policy owner's edits as stored (validated when saved).
 */
export async function loadCannedQuestions(
  tx: DbTx,
  projectId: string,
): Promise<{ policy: RetentionPolicy; canned: Record<CannedQuestionId, EvidenceQuestion> }> {
  const row = await storedPolicy(tx, projectId);
  const policy = row ? policyFromRow(row) : DEFAULT_POLICY;
  const overrides = (row?.cannedQuestions ?? {}) as CannedQuestionOverrides;
  return { policy, canned: applyCannedOverrides(cannedQuestionsFor(policy), overrides) };
}

const OverridesSchema = z.partialRecord(
  z.enum(CANNED_QUESTION_IDS),
  z
    .object({
      title: z.string().min(1).max(200).optional(),
      description: z.string().max(1000).optional(),
      anyOf: z.array(z.record(z.string(), z.unknown())).min(1).optional(),
    })
    .strict(),
);

/**
 * Replaces a project's retention policy (an admin act with a reason, whatever the change), as the
 * next version (versions.ts), audited with before and after in the same transaction. The horizon
 * and the evidence-workloads switch change how existing spans are judged at once (statuses are
 * derived); held, unpinned originals are re-dated to the new TTLs. A form sends the version it was
 * filled from (`expectedVersion`), and one that shows no what-if asks for `requirePreview`: a change
 * that gives up evidence is then refused before its reason is asked for, to be previewed instead.
 */
export async function updatePolicy(
  projectId: string,
  input: { policy: unknown; cannedQuestions?: unknown; expectedVersion?: number; requirePreview?: boolean },
  actor: Actor,
  reason: string | null | undefined,
) {
  const validation = validatePolicy(input.policy);
  if (!validation.valid) {
    throw new AppError("VALIDATION_FAILED", "The policy is not valid", {
      fields: validation.errors.map((e) => ({ path: e.field, message: e.message })),
    });
  }
  const overrides = parseCannedOverrides(input.cannedQuestions ?? {});
  // The reason is required of every change (alwaysNeedsReason), checked where the change is known.
  const saved = await savePolicyVersion(
    projectId,
    {
      policy: input.policy as RetentionPolicy,
      cannedQuestions: overrides as Prisma.InputJsonValue,
      expectedVersion: input.expectedVersion,
      requirePreview: input.requirePreview,
      reason,
      alwaysNeedsReason: true,
    },
    actor,
  );
  return { warnings: saved.warnings, version: saved.version, changes: saved.changes };
}

/** Nesting an edit needs (edits, a question, anyOf, a predicate, a field's list) and room to spare. */
const MAX_OVERRIDES_DEPTH = 16;

/** Whether a JSON value nests deeper than `limit`, counted without recursion (a deep value would overflow the stack). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Canned-question edits, checked field by field (422 naming the predicate field at fault). */
export function parseCannedOverrides(value: unknown): CannedQuestionOverrides {
  if (nestsDeeperThan(value, MAX_OVERRIDES_DEPTH))
    throw new AppError("VALIDATION_FAILED", "The canned question edits nest too deep", {
      fields: [{ path: "cannedQuestions", message: `nested deeper than ${MAX_OVERRIDES_DEPTH} levels` }],
    });
  const overrides = parseWith(OverridesSchema, value, "The canned question edits") as CannedQuestionOverrides;
  // Stored as JSON, which Postgres refuses to hold a NUL in (anywhere: a title, a key, a predicate's
  // value): a \u0000 escape in the JSON text that is not a backslash's own escape followed by "u0000".
  if (/(?:^|[^\\])(?:\\\\)*\\u0000/.test(JSON.stringify(overrides)))
    throw new AppError("VALIDATION_FAILED", "The canned question edits hold a NUL character", {
      fields: [{ path: "cannedQuestions", message: "must not contain the NUL character (U+0000)" }],
    });
  for (const [id, edit] of Object.entries(overrides)) {
    for (const [i, predicate] of (edit?.anyOf ?? []).entries()) {
      const problems = validatePredicate(predicate as EvidencePredicate);
      if (problems.length > 0) {
        throw new AppError("VALIDATION_FAILED", "A canned question's predicate is not valid", {
          fields: problems.map((p) => ({ path: `cannedQuestions.${id}.anyOf.${i}.${p.field}`, message: p.message })),
        });
      }
    }
  }
  return overrides;
}
