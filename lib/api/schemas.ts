/**
 * The public API's shapes, shared by route handlers, server actions and the OpenAPI document.
 * Limits are part of the contract: they are documented and returned in errors.
 */
import { z } from "zod";
import {
  ATOM_KINDS,
  EVIDENTIAL_CLASSES,
  PROVENANCE_STATUSES,
  SIDE_EFFECT_KINDS,
  SPAN_KINDS,
  VERDICTS,
} from "@/lib/evidence/types";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";

export const LIMITS = {
  /** Rows per page of the read endpoints (GET sessions, GET a session's spans), and the most one page may ask for. */
  listDefault: 100,
  listMax: 1000,
  /** Spans in one POST /sessions/{id}/spans. */
  maxSpansPerBatch: 1000,
  /** Bytes of one span's body after decoding. */
  maxSpanBytes: 8 * 1024 * 1024,
  /** Spans in one gate evaluation or reclamation. */
  maxSpansPerGateCall: 10_000,
  /** Bytes of one transcript file sent to POST /imports. */
  maxImportBytes: 256 * 1024 * 1024,
  /** Files up to this size are imported within the request; larger ones run as a job. */
  syncImportBytes: 2 * 1024 * 1024,
  /** Citations, and blockers, in one evidence answer unless the request asks for another page size. */
  evidenceListDefault: 1000,
  /** The most citations, and blockers, one evidence answer carries: page through the rest. */
  evidenceListMax: 10_000,
} as const;

const isoDate = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const uuid = z.uuid();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "lower-case hex sha256");

export const SessionCreateSchema = z
  .object({
    externalId: z.string().min(1).max(512),
    runtime: z.string().min(1).max(64),
    title: z.string().max(500).optional(),
    cwd: z.string().max(4096).optional(),
    startedAt: isoDate.optional(),
  })
  .strict();

export const SessionSchema = z.object({
  id: uuid,
  externalId: z.string(),
  runtime: z.string(),
  title: z.string().nullable(),
  cwd: z.string().nullable(),
  startedAt: z.string().nullable(),
  created: z.boolean(),
});

export const SpanInputSchema = z
  .object({
    seq: z.number().int().min(0).max(2_147_483_647),
    kind: z.enum(SPAN_KINDS),
    role: z.string().max(64).optional(),
    toolName: z.string().max(256).optional(),
    toolInput: z.unknown().optional(), // any JSON value: the body was parsed from JSON
    toolAnnotations: z
      .object({ readOnlyHint: z.boolean().optional(), destructiveHint: z.boolean().optional() })
      .strict()
      .optional(),
    exitCode: z.number().int().optional(),
    /** TOOL_CALL spans (and their results): what became of the call. */
    outcome: z.enum(TOOL_OUTCOMES).optional(),
    /** The subagent that produced the span; omitted for the session's main agent. */
    agentId: z.string().min(1).max(256).optional(),
    agentType: z.string().min(1).max(256).optional(),
    cwd: z.string().max(4096).optional(),
    occurredAt: isoDate,
    body: z.string(),
    bodyEncoding: z.enum(["utf8", "base64"]).default("utf8"),
  })
  .strict();

export const SpanBatchSchema = z.object({ spans: z.array(SpanInputSchema).min(1).max(LIMITS.maxSpansPerBatch) }).strict();

export const IngestedSpanSchema = z.object({
  id: uuid,
  seq: z.number().int(),
  class: z.enum(EVIDENTIAL_CLASSES),
  atomCount: z.number().int(),
  sha256,
  created: z.boolean(),
});

export const SpanBatchResultSchema = z.object({ spans: z.array(IngestedSpanSchema) });

export const PointerSchema = z
  .object({ spanId: z.string().min(1).max(128), byteStart: z.number().int().min(0), byteEnd: z.number().int().min(0), sha256 })
  .strict()
  .refine((p) => p.byteEnd >= p.byteStart, { message: "byteEnd must not be before byteStart", path: ["byteEnd"] });

export const OmissionManifestSchema = z
  .object({
    omitted: z.array(
      z.object({ kind: z.enum(ATOM_KINDS), count: z.number().int().min(0), values: z.array(z.string()).optional() }).strict(),
    ),
  })
  .strict();

export const SummarySchema = z
  .object({
    text: z.string().max(1_000_000),
    pointers: z.array(PointerSchema).max(LIMITS.maxSpansPerGateCall).default([]),
    omissions: OmissionManifestSchema.optional(),
  })
  .strict();

export const PolicySchema = z
  .object({
    evidenceHorizonDays: z.number().int().min(0).max(36_500),
    ttlDays: z
      .object({
        NARRATIVE: z.number().int().min(0),
        STRUCTURED: z.number().int().min(0),
        SIDE_EFFECTING: z.number().int().min(0),
      })
      .strict(),
    evidenceWorkloads: z.boolean(),
    systemConfigPrefixes: z.array(z.string().min(1)).max(500),
  })
  .partial()
  .strict();

export const GateEvaluateSchema = z
  .object({
    spans: z
      .array(
        z
          .object({
            id: z.string().min(1).max(128),
            class: z.enum(EVIDENTIAL_CLASSES).optional(),
            content: z.string().max(LIMITS.maxSpanBytes).optional(),
            kind: z.enum(SPAN_KINDS).default("MESSAGE"),
            toolName: z.string().max(256).optional(),
            toolInput: z.unknown().optional(), // any JSON value: the body was parsed from JSON
            hasPointer: z.boolean(),
            originalRetrievable: z.boolean(),
            originalExpiresAt: isoDate.optional(),
            pinned: z.boolean().default(false),
            occurredAt: isoDate.optional(),
          })
          .strict()
          .refine((s) => s.class !== undefined || s.content !== undefined, { message: "give class or content", path: ["class"] }),
      )
      .min(1)
      .max(LIMITS.maxSpansPerGateCall),
    summary: SummarySchema.optional(),
    policy: PolicySchema.optional(),
  })
  .strict();

const AtomOutSchema = z.object({
  kind: z.enum(ATOM_KINDS),
  text: z.string(),
  normalized: z.string(),
  byteStart: z.number().int(),
  byteEnd: z.number().int(),
  effect: z.string().optional(),
});

export const GateResultSchema = z.object({
  id: z.string(),
  verdict: z.enum(VERDICTS),
  cell: z.object({ class: z.enum(EVIDENTIAL_CLASSES), provenance: z.enum(PROVENANCE_STATUSES) }),
  reason: z.string(),
  atomsAtRisk: z.array(AtomOutSchema).optional(),
});

export const GateEvaluateResultSchema = z.object({ results: z.array(GateResultSchema) });

export const ReclamationSchema = z
  .object({
    sessionId: uuid,
    spanIds: z.array(uuid).min(1).max(LIMITS.maxSpansPerGateCall).optional(),
    fromSeq: z.number().int().min(0).optional(),
    toSeq: z.number().int().min(0).optional(),
    summary: SummarySchema,
    dryRun: z.boolean().default(false),
  })
  .strict()
  .superRefine((r, ctx) => {
    const range = r.fromSeq !== undefined || r.toSeq !== undefined;
    if (r.spanIds && range)
      ctx.addIssue({ code: "custom", message: "give spanIds or fromSeq/toSeq, not both", path: ["spanIds"] });
    if (!r.spanIds && (r.fromSeq === undefined || r.toSeq === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "give spanIds, or both fromSeq and toSeq",
        path: [r.fromSeq === undefined ? "fromSeq" : "toSeq"],
      });
    }
    if (r.fromSeq !== undefined && r.toSeq !== undefined && r.toSeq < r.fromSeq) {
      ctx.addIssue({ code: "custom", message: "toSeq must not be below fromSeq", path: ["toSeq"] });
    }
  });

export const ReclamationResultSchema = z.object({
  reclamationId: uuid,
  dryRun: z.boolean(),
  summarySpanId: uuid.nullable(),
  results: z.array(GateResultSchema),
});

const PredicateSchema = z
  .object({
    atomKinds: z.array(z.enum(ATOM_KINDS)).optional(),
    effectKinds: z.array(z.enum(SIDE_EFFECT_KINDS)).optional(),
    valuePrefixes: z.array(z.string().min(1)).max(200).optional(),
    excludePrefixes: z.array(z.string().min(1)).max(200).optional(),
    valuePattern: z.string().max(1000).optional(),
    valuePatternFlags: z
      .string()
      .regex(/^[imsu]*$/)
      .optional(),
    toolNames: z.array(z.string()).max(200).optional(),
    argNames: z.array(z.string()).max(200).optional(),
    commandPattern: z.string().max(1000).optional(),
    outsideCwd: z.boolean().optional(),
    includeNegated: z.boolean().optional(),
    outcomes: z.array(z.enum(TOOL_OUTCOMES)).min(1).max(TOOL_OUTCOMES.length).optional(),
  })
  .strict();

const listWindow = z
  .object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(LIMITS.evidenceListMax).default(LIMITS.evidenceListDefault),
  })
  .strict();

export const EvidenceQuerySchema = z
  .object({
    question: z.union([
      z.object({ canned: z.string().min(1) }).strict(),
      z.object({ predicate: PredicateSchema, title: z.string().max(200).optional() }).strict(),
    ]),
    scope: z
      .object({ sessionIds: z.array(uuid).min(1).max(10_000).optional(), from: isoDate.optional(), to: isoDate.optional() })
      .strict()
      .default({}),
    /** Which part of each list to return: an answer over a whole project can name tens of thousands of blockers. */
    page: z.object({ citations: listWindow.optional(), blockers: listWindow.optional() }).strict().default({}),
  })
  .strict();

export const EvidenceAnswerSchema = z.object({
  answer: z.enum(["YES", "NO", "INSUFFICIENT_EVIDENCE"]),
  question: z.object({ id: z.string(), title: z.string() }),
  citations: z.array(
    z.object({
      sessionId: uuid,
      spanId: uuid,
      seq: z.number().int(),
      byteStart: z.number().int(),
      byteEnd: z.number().int(),
      sha256,
      excerpt: z.string(),
      bytesBase64: z.string(),
      atomKind: z.enum(ATOM_KINDS),
      spanKind: z.enum(SPAN_KINDS).optional(),
      /** The outcome and exit code of the call the cited span is or belongs to; null for no call. */
      outcome: z.enum(TOOL_OUTCOMES).nullable(),
      exitCode: z.number().int().nullable(),
    }),
  ),
  blockers: z.array(
    z.object({
      sessionId: uuid,
      spanId: uuid,
      seq: z.number().int(),
      class: z.enum(EVIDENTIAL_CLASSES),
      provenance: z.enum(PROVENANCE_STATUSES),
      dropped: z.array(z.object({ kind: z.enum(ATOM_KINDS), count: z.number().int() })),
      originalHeld: z.boolean(),
      unblockBy: z.enum(["pin", "extend", "none"]),
      reason: z.string(),
    }),
  ),
  /** All citations and blockers of the answer; the lists above are the page asked for. */
  citationCount: z.number().int(),
  blockerCount: z.number().int(),
  gaps: z.array(z.object({ sessionId: uuid, fromSeq: z.number().int(), toSeq: z.number().int() })),
  checkedSpans: z.number().int(),
  scopeComplete: z.boolean(),
  /** Records the sessions' imports skipped: each blocks a NO. */
  skippedRecords: z.array(z.object({ sessionId: uuid, line: z.number().int(), reason: z.string() })),
  /** Nothing was in scope: never a NO. */
  noSpansInScope: z.boolean(),
  /** Distinct cited calls by outcome, and the same in words ("3 attempts: 2 failed, 1 succeeded"). */
  outcomes: z.partialRecord(z.enum(TOOL_OUTCOMES), z.number().int()),
  outcomeSummary: z.string(),
});

/** Paging of the read endpoints: a page size and the cursor the previous page returned. */
const pageQuery = {
  limit: z.coerce.number().int().min(1).max(LIMITS.listMax).default(LIMITS.listDefault),
  cursor: z.string().min(1).max(512).optional(),
};

export const SessionListQuerySchema = z
  .object({ ...pageQuery, runtime: z.string().min(1).max(100).optional(), externalId: z.string().min(1).max(1000).optional() })
  .strict();

export const SessionListSchema = z.object({
  sessions: z.array(
    z.object({
      id: uuid,
      externalId: z.string(),
      runtime: z.string(),
      title: z.string().nullable(),
      cwd: z.string().nullable(),
      startedAt: z.string().nullable(),
      lastActivityAt: z.string(),
      spanCount: z.number().int(),
      refusalCount: z.number().int(),
      /** Originals of the session's spans whose bytes were deleted (swept or damaged). */
      originalsDeleted: z.number().int(),
      /** Records its imports skipped: while any are, no question answers NO over the session. */
      skippedRecords: z.number().int(),
    }),
  ),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});

export const SpanListQuerySchema = z
  .object({ ...pageQuery, class: z.enum(EVIDENTIAL_CLASSES).optional(), provenance: z.enum(PROVENANCE_STATUSES).optional() })
  .strict();

export const SpanListSchema = z.object({
  spans: z.array(
    z.object({
      id: uuid,
      seq: z.number().int().nullable(),
      kind: z.enum(SPAN_KINDS),
      role: z.string().nullable(),
      toolName: z.string().nullable(),
      class: z.enum(EVIDENTIAL_CLASSES),
      provenance: z.enum(PROVENANCE_STATUSES),
      transcriptState: z.enum(["VERBATIM", "RECLAIMED", "RECLAIMED_HONEST", "PRESERVED"]),
      outcome: z.enum(TOOL_OUTCOMES).nullable(),
      exitCode: z.number().int().nullable(),
      sourceLine: z.number().int().nullable(),
      agentId: z.string().nullable(),
      agentType: z.string().nullable(),
      occurredAt: z.string(),
      byteLength: z.number().int(),
      sha256,
    }),
  ),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});

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
  lost: ByClassSchema,
  lostSessions: ByClassSchema,
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
