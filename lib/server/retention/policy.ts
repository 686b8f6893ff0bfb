import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";
import { db, type DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
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
import { writeAudit, type Actor } from "@/lib/server/audit";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { RetentionPolicy as PolicyRow } from "@/lib/db/generated/client";

export function policyFromRow(row: PolicyRow): RetentionPolicy {
  return {
    evidenceHorizonDays: row.evidenceHorizonDays,
    ttlDays: {
      NARRATIVE: row.ttlNarrativeDays,
      STRUCTURED: row.ttlStructuredDays,
      SIDE_EFFECTING: row.ttlSideEffectingDays,
    },
    evidenceWorkloads: row.evidenceWorkloads,
    systemConfigPrefixes: row.systemConfigPrefixes,
  };
}

export function policyToRow(policy: RetentionPolicy) {
  return {
    evidenceHorizonDays: policy.evidenceHorizonDays,
    ttlNarrativeDays: policy.ttlDays.NARRATIVE,
    ttlStructuredDays: policy.ttlDays.STRUCTURED,
    ttlSideEffectingDays: policy.ttlDays.SIDE_EFFECTING,
    evidenceWorkloads: policy.evidenceWorkloads,
    systemConfigPrefixes: [...policy.systemConfigPrefixes],
  };
}

/** The project's retention policy, or the defaults when it has not set one. */
export async function loadPolicy(tx: DbTx, projectId: string): Promise<RetentionPolicy> {
  const row = await tx.retentionPolicy.findUnique({ where: { projectId } });
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
  const row = await tx.retentionPolicy.findUnique({ where: { projectId } });
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
 * Replaces a project's retention policy (an admin act with a reason), audited with before and after
 * in the same transaction. New TTLs apply to originals received from now on; the horizon and the
 * evidence-workloads switch change how existing spans are judged at once (statuses are derived).
 */
export async function updatePolicy(
  projectId: string,
  input: { policy: unknown; cannedQuestions?: unknown },
  actor: Actor,
  reason: string | null | undefined,
) {
  const why = reason?.trim();
  if (!why)
    throw new AppError("VALIDATION_FAILED", "A policy change needs a reason", {
      fields: [{ path: "reason", message: "required" }],
    });
  const validation = validatePolicy(input.policy);
  if (!validation.valid) {
    throw new AppError("VALIDATION_FAILED", "The policy is not valid", {
      fields: validation.errors.map((e) => ({ path: e.field, message: e.message })),
    });
  }
  const overrides = parseWith(
    OverridesSchema,
    input.cannedQuestions ?? {},
    "The canned question edits",
  ) as CannedQuestionOverrides;
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
  const policy = input.policy as RetentionPolicy;
  return db().$transaction(async (tx) => {
    const before = await tx.retentionPolicy.findUnique({ where: { projectId } });
    const data = { ...policyToRow(policy), cannedQuestions: overrides as Prisma.InputJsonValue };
    await tx.retentionPolicy.upsert({ where: { projectId }, create: { projectId, ...data }, update: data });
    await writeAudit(tx, {
      projectId,
      actor,
      act: "policy.update",
      targetType: "project",
      targetId: projectId,
      before: before ? { ...policyFromRow(before), cannedQuestions: before.cannedQuestions } : { default: true },
      after: { ...policy, cannedQuestions: overrides },
      reason: why,
    });
    return { warnings: validation.warnings };
  });
}
