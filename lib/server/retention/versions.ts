/**
 * Retention policy versions: every saved policy is a version with who, when, why and a field-by-
 * field diff from the one before; rolling back saves the old policy again as a new version. A
 * change that gives up evidence (policy-diff.ts) needs a reason; one that only keeps things longer
 * saves without. Saving re-dates the held, unpinned originals of every class whose TTL changed by
 * the difference, so what a simulation shows the policy deleting is what the sweeper will delete.
 */
import { canonicalJson } from "@/lib/core/canonical-json";
import { AppError } from "@/lib/core/errors";
import { db, type DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { DEFAULT_POLICY, validatePolicy } from "@/lib/evidence/policy";
import { EVIDENTIAL_CLASSES, type RetentionPolicy } from "@/lib/evidence/types";
import { writeAudit, type Actor } from "@/lib/server/audit";
import { diffPolicies, isNarrowing, type PolicyFieldChange } from "./policy-diff";
import { policyFromRow, policyToRow } from "./policy-row";

export interface PolicyVersion {
  version: number;
  policy: RetentionPolicy;
  changes: PolicyFieldChange[];
  reason: string | null;
  actor: { type: string; label: string };
  at: Date;
  /** The version this one restored, when it was a rollback. */
  rollbackOf: number | null;
}

/**
 * The policy in force and its version (0: never saved through versions; the stored row or the
 * defaults), read from one snapshot: a form filled from it sends back the version its values are of.
 */
export async function currentPolicy(
  projectId: string,
  tx?: DbTx,
): Promise<{ policy: RetentionPolicy; version: number; cannedQuestions: Prisma.JsonValue; isDefault: boolean }> {
  const read = (t: DbTx) =>
    Promise.all([
      t.retentionPolicy.findUnique({ where: { projectId } }),
      t.retentionPolicyVersion.findFirst({ where: { projectId }, orderBy: { version: "desc" }, select: { version: true } }),
    ]);
  // Two statements: outside a caller's transaction, one repeatable-read snapshot keeps a save from landing between them.
  const [row, latest] = tx ? await read(tx) : await db().$transaction(read, { isolationLevel: "RepeatableRead" });
  return {
    policy: row ? policyFromRow(row) : DEFAULT_POLICY,
    version: latest?.version ?? 0,
    cannedQuestions: row?.cannedQuestions ?? {},
    isDefault: row === null,
  };
}

export async function listPolicyVersions(projectId: string, limit = 200): Promise<PolicyVersion[]> {
  const rows = await db().retentionPolicyVersion.findMany({
    where: { projectId },
    orderBy: { version: "desc" },
    take: limit,
  });
  return rows.map((r) => ({
    version: r.version,
    policy: r.policy as unknown as RetentionPolicy,
    changes: r.changes as unknown as PolicyFieldChange[],
    reason: r.reason,
    actor: { type: r.actorType, label: r.actorLabel },
    at: r.createdAt,
    rollbackOf: r.rollbackOf,
  }));
}

/** Versions are 32-bit integers: a number beyond them names no version (and would fail the query). */
function isVersionNumber(version: number): boolean {
  return Number.isInteger(version) && version >= 0 && version <= 2_147_483_647;
}

/** The policy a version saved, or null when the project has no such version. */
export async function policyOfVersion(projectId: string, version: number): Promise<RetentionPolicy | null> {
  if (!isVersionNumber(version)) return null;
  const row = await db().retentionPolicyVersion.findUnique({
    where: { projectId_version: { projectId, version } },
    select: { policy: true },
  });
  return row ? (row.policy as unknown as RetentionPolicy) : null;
}

export interface SavePolicyInput {
  policy: RetentionPolicy;
  /** The version the change was made from: another one saved since is a conflict (409). */
  expectedVersion?: number;
  reason?: string | null;
  /** Canned-question edits to store with the policy; left out: kept as they are. */
  cannedQuestions?: Prisma.InputJsonValue;
  /** Every change needs a reason, not only narrowing ones (the settings form's rule). */
  alwaysNeedsReason?: boolean;
  /**
   * The save comes from a form that shows no what-if (the settings page, the history page's
   * rollback): a change that gives up evidence is refused there, to be previewed and saved from the
   * retention page's what-if instead (`needsPreview` tells the refusal apart).
   */
  requirePreview?: boolean;
  rollbackOf?: number;
}

export interface SavedPolicy {
  version: number;
  changes: PolicyFieldChange[];
  warnings: Array<{ field: string; message: string }>;
  /** Held originals re-dated to the new TTLs. */
  redated: number;
}

/** The field a refusal names when the change must be previewed first. */
const PREVIEW_FIELD = "preview";

function invalid(fields: Array<{ path: string; message: string }>, message: string): never {
  throw new AppError("VALIDATION_FAILED", message, { fields });
}

/**
 * A change that gives up evidence, sent from a form without a preview: refused naming the field
 * "preview" (and only that field), which the forms read as "hand the proposal to the what-if". The retention page's
 * what-if previews and saves the policy fields alone: canned-question edits sent with it would be
 * lost on the way, so they are refused by name instead, to be saved first on their own.
 */
function refuseUnpreviewed(
  changes: PolicyFieldChange[],
  stored: Prisma.JsonValue,
  sent: Prisma.InputJsonValue | undefined,
): never {
  const fields = changes.filter((c) => c.narrowing).map((c) => c.field);
  if (sent !== undefined && canonicalJson(sent) !== canonicalJson(stored)) {
    invalid(
      [{ path: "cannedQuestions", message: "save the question edits on their own first: the policy change must be previewed" }],
      `This change gives up evidence (${fields.join(", ")}), so it is saved from the retention page's preview; save the canned-question edits on their own first`,
    );
  }
  throw new AppError(
    "VALIDATION_FAILED",
    `This change gives up evidence (${fields.join(", ")}): preview what it deletes and breaks on the retention page, and save it there with a reason`,
    { fields: [{ path: PREVIEW_FIELD, message: "required before a change that gives up evidence" }], details: { fields } },
  );
}

/** Saves a policy as the next version, audited in the same transaction. */
export async function savePolicyVersion(projectId: string, input: SavePolicyInput, actor: Actor): Promise<SavedPolicy> {
  const validation = validatePolicy(input.policy);
  if (!validation.valid) {
    invalid(
      validation.errors.map((e) => ({ path: e.field ? `policy.${e.field}` : "policy", message: e.message })),
      "The policy is not valid",
    );
  }
  const why = input.reason?.trim() || null;
  return db().$transaction(
    async (tx) => {
      // On a Citus cluster, one connection per node for the whole change: the policy row's triggers
      // recount the project's sessions on each node (docs/citus.md) over the connection that wrote
      // the row there, unseen by Citus, and the originals redated below by another connection would
      // wait for those rows, a deadlock within the one transaction that Citus cancels. (On one node
      // the setting is an unused placeholder.)
      await tx.$executeRaw`set local citus.multi_shard_modify_mode = 'sequential'`;
      // One writer per project at a time: the version check and the insert cannot interleave.
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext('retention_policy:' || ${projectId}))`;
      const current = await currentPolicy(projectId, tx);
      if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
        throw new AppError(
          "CONFLICT",
          `The policy is at version ${current.version}, not ${input.expectedVersion}: reload it and make the change again`,
          { details: { currentVersion: current.version } },
        );
      }
      const changes = diffPolicies(current.policy, input.policy);
      if (input.requirePreview && isNarrowing(changes)) {
        // A rollback restores its version's questions with its policy, through the preview too.
        const sent = input.rollbackOf === undefined ? input.cannedQuestions : undefined;
        refuseUnpreviewed(changes, current.cannedQuestions, sent);
      }
      if (!why && (input.alwaysNeedsReason || isNarrowing(changes))) {
        invalid(
          [{ path: "reason", message: "required: this change shortens a TTL or the horizon, or narrows the system-config list" }],
          isNarrowing(changes) ? "A change that gives up evidence needs a reason" : "A policy change needs a reason",
        );
      }
      if (current.version === 0) {
        // The policy in force before its first saved version, kept as version 0 so it can be rolled back to.
        await tx.retentionPolicyVersion.upsert({
          where: { projectId_version: { projectId, version: 0 } },
          update: {},
          create: {
            projectId,
            version: 0,
            policy: current.policy as unknown as Prisma.InputJsonValue,
            cannedQuestions: current.cannedQuestions as Prisma.InputJsonValue,
            changes: [],
            reason: "the policy in force before policies were versioned",
            actorType: "SYSTEM",
            actorLabel: "custodian",
          },
        });
      }
      const version = current.version + 1;
      const hadRow = (await tx.retentionPolicy.count({ where: { projectId } })) > 0;
      const cannedQuestions = input.cannedQuestions ?? (current.cannedQuestions as Prisma.InputJsonValue);
      const data = { ...policyToRow(input.policy), cannedQuestions };
      await tx.retentionPolicy.upsert({ where: { projectId }, create: { projectId, ...data }, update: data });
      const redated = await redateOriginals(tx, projectId, current.policy, input.policy);
      await tx.retentionPolicyVersion.create({
        data: {
          projectId,
          version,
          policy: input.policy as unknown as Prisma.InputJsonValue,
          cannedQuestions,
          changes: changes as unknown as Prisma.InputJsonValue,
          reason: why,
          actorType: actor.type,
          actorId: actor.id ?? null,
          actorLabel: actor.label,
          rollbackOf: input.rollbackOf ?? null,
        },
      });
      await writeAudit(tx, {
        projectId,
        actor,
        act: input.rollbackOf === undefined ? "policy.update" : "policy.rollback",
        targetType: "project",
        targetId: projectId,
        before:
          current.version === 0 && !hadRow
            ? { default: true }
            : { ...current.policy, version: current.version, cannedQuestions: current.cannedQuestions },
        after: {
          ...input.policy,
          cannedQuestions,
          version,
          changes,
          redated,
          ...(input.rollbackOf === undefined ? {} : { rollbackOf: input.rollbackOf }),
        },
        reason: why,
      });
      return { version, changes, warnings: validation.warnings, redated };
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
}

/** Saves the policy of an earlier version again, as a new version (never rewrites history). */
export async function rollbackPolicy(
  projectId: string,
  input: {
    toVersion: number;
    expectedVersion?: number;
    reason?: string | null;
    requirePreview?: boolean;
    /** The policy the caller previewed as this rollback: refused unless it is the version's. */
    previewed?: RetentionPolicy;
  },
  actor: Actor,
): Promise<SavedPolicy> {
  if (!isVersionNumber(input.toVersion)) throw new AppError("NOT_FOUND", `The policy has no version ${input.toVersion}`);
  const target = await db().retentionPolicyVersion.findUnique({
    where: { projectId_version: { projectId, version: input.toVersion } },
  });
  if (!target) throw new AppError("NOT_FOUND", `The policy has no version ${input.toVersion}`);
  const policy = target.policy as unknown as RetentionPolicy;
  if (input.previewed && diffPolicies(policy, input.previewed).length > 0)
    invalid(
      [{ path: "rollbackOf", message: `the previewed policy is not version ${input.toVersion}'s` }],
      `The previewed policy differs from version ${input.toVersion}: save it as a change, not a rollback`,
    );
  return savePolicyVersion(
    projectId,
    {
      policy,
      cannedQuestions: target.cannedQuestions as Prisma.InputJsonValue,
      expectedVersion: input.expectedVersion,
      reason: input.reason,
      requirePreview: input.requirePreview,
      rollbackOf: input.toVersion,
    },
    actor,
  );
}

/**
 * Moves the expiry of held, unpinned originals of each class whose TTL changed by the difference
 * in days: an original kept 730 days under the old policy is kept 1 day under a policy of 1 day
 * (counted from the same start, so an operator's extension keeps its length beyond the TTL).
 */
async function redateOriginals(tx: DbTx, projectId: string, before: RetentionPolicy, after: RetentionPolicy): Promise<number> {
  let redated = 0;
  for (const cls of EVIDENTIAL_CLASSES) {
    const delta = after.ttlDays[cls] - before.ttlDays[cls];
    if (delta === 0) continue;
    redated += await tx.$executeRaw`
      update span_original o set expires_at = o.expires_at + make_interval(days => ${delta}::int)
        from span s, session se
       where se.project_id = ${projectId}::uuid and s.session_id = se.id
         and o.session_id = s.session_id and o.span_id = s.id and s.class = ${cls}::"EvidentialClass"
         and o.pinned = false and o.bytes is not null and o.expires_at is not null`;
  }
  return redated;
}
