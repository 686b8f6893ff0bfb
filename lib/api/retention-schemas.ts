/** The retention endpoints' shapes: the policy with its version, a change with its reason, a what-if. */
import { z } from "zod";
import { EVIDENTIAL_CLASSES } from "@/lib/evidence/types";
import { uuid } from "./schemas";

/** Most days a retention TTL or horizon may name (a century: catches seconds typed as days). */
const policyDays = z.number().int().min(0).max(36_500);

/** A retention policy, or changes to the current one: a field left out keeps its current value. */
export const RetentionPolicyPatchSchema = z
  .object({
    evidenceHorizonDays: policyDays.min(1),
    ttlDays: z.object({ NARRATIVE: policyDays, STRUCTURED: policyDays, SIDE_EFFECTING: policyDays }).partial().strict(),
    evidenceWorkloads: z.boolean(),
    systemConfigPrefixes: z.array(z.string().min(1).max(1024)).max(500),
  })
  .partial()
  .strict();

const ByClassSchema = z.object({
  NARRATIVE: z.number().int(),
  STRUCTURED: z.number().int(),
  SIDE_EFFECTING: z.number().int(),
});

const FullPolicySchema = z.object({
  evidenceHorizonDays: z.number().int(),
  ttlDays: ByClassSchema,
  evidenceWorkloads: z.boolean(),
  systemConfigPrefixes: z.array(z.string()),
});

const PolicyChangeSchema = z.object({
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  narrowing: z.boolean(),
  added: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
});

export const RetentionPolicyResultSchema = z.object({ policy: FullPolicySchema, version: z.number().int().min(0) });

export const RetentionPolicyPutSchema = z
  .object({
    policy: RetentionPolicyPatchSchema,
    /** Required when the change shortens a TTL or the horizon, or narrows the system-config list. */
    reason: z.string().max(1000).optional(),
    /** The version the change was made from (GET's `version`): another saved since is a 409. */
    version: z.number().int().min(0),
  })
  .strict();

export const RetentionPolicySavedSchema = z.object({
  policy: FullPolicySchema,
  version: z.number().int(),
  changes: z.array(PolicyChangeSchema),
  warnings: z.array(z.object({ field: z.string(), message: z.string() })),
});

export const RetentionSimulationSchema = z
  .object({
    policy: RetentionPolicyPatchSchema.default({}),
    horizonDays: z.number().int().min(1).max(3650).default(90),
  })
  .strict();

const SimulatedDaySchema = z.object({
  date: z.string(),
  originalsDeleted: z.number().int(),
  bytesFreed: z.number().int(),
  bytesStored: z.number().int(),
  storedByClass: ByClassSchema,
  deletedByClass: ByClassSchema,
  /** bytesFreed by class. */
  freedByClass: ByClassSchema,
  /** Spans turning EXPIRING that day (under a proposal, on day 0: those it moves there). */
  turnedExpiring: ByClassSchema,
  /** Spans still EXPIRING at the end of the day. */
  expiringHeld: ByClassSchema,
  /** Spans turning LOST that day (their original deleted). */
  lost: ByClassSchema,
  lostSessions: ByClassSchema,
});

/** A session's spans of a class turning EXPIRING or LOST on a day. */
const SessionDaySchema = z.object({
  date: z.string(),
  sessionId: uuid,
  class: z.enum(EVIDENTIAL_CLASSES),
  turnedExpiring: z.number().int(),
  lost: z.number().int(),
});

const QuestionChangeSchema = z.object({
  questionId: z.string(),
  questionTitle: z.string(),
  sessionId: uuid,
  from: z.enum(["YES", "NO"]),
  to: z.literal("INSUFFICIENT_EVIDENCE"),
  at: z.string(),
  spanIds: z.array(uuid),
});

const DeletionSchema = z.object({
  sessionId: uuid,
  spanId: uuid,
  class: z.enum(EVIDENTIAL_CLASSES),
  bytes: z.number().int(),
  at: z.string(),
});

const OutlookSchema = z.object({
  policy: FullPolicySchema,
  days: z.array(SimulatedDaySchema),
  deletions: z.array(DeletionSchema),
  expiring: ByClassSchema,
  expiringSessions: ByClassSchema,
  /** The sessions behind the day series, soonest first (at most 500 a policy). */
  sessions: z.array(SessionDaySchema),
  sessionsTruncated: z.boolean(),
  questionsAffected: z.array(QuestionChangeSchema),
  refusals: z.number().int(),
});

/** The proposal's figures at the top level; the current policy's beside them under `current`. */
export const RetentionSimulationResultSchema = z.object({
  from: z.string(),
  horizonDays: z.number().int(),
  changes: z.array(PolicyChangeSchema),
  days: z.array(SimulatedDaySchema),
  /** The first originals the proposal deletes, soonest first (at most 200). */
  deletions: z.array(DeletionSchema),
  /** The sessions with spans the proposal turns EXPIRING or LOST, by day and class (at most 500). */
  sessions: z.array(SessionDaySchema),
  sessionsTruncated: z.boolean(),
  questionsAffected: z.array(QuestionChangeSchema),
  refusals: z.object({
    current: z.number().int(),
    proposed: z.number().int(),
    gained: z.number().int(),
    lost: z.number().int(),
    decisions: z.number().int(),
    recorded: z.number().int(),
  }),
  current: OutlookSchema,
  proposed: OutlookSchema,
  questionsTruncated: z.boolean(),
});
