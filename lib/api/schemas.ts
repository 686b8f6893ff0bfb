import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import { text } from "@/lib/core/validation";
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
  /** Bytes of one span's body after decoding: the one cap on a span, whatever its path (lib/core/limits). */
  maxSpanBytes: MAX_SPAN_BODY_BYTES,
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
  /**
   * Largest seq of a span (and of a reclamation's range). Storage is a 32-bit integer; the bound
   * leaves room for the arithmetic reads do on it (`seq + 1` for gaps and pairing).
   */
  maxSeq: 2_000_000_000,
  /** Exit codes: any 32-bit signed integer (negative for signals, as some runtimes report them). */
  minExitCode: -2_147_483_648,
  maxExitCode: 2_147_483_647,
  /** Nesting of a request body's JSON (objects and arrays), and of one tool input within it. */
  maxJsonDepth: 128,
  maxToolInputDepth: 64,
  /** Dates: ISO 8601 with an offset, from the first day of year 1 to the last instant of 9999 (UTC). */
  minDate: "0001-01-01T00:00:00.000Z",
  maxDate: "9999-12-31T23:59:59.999Z",
  /** Days of a TTL or an evidence horizon in a policy (a century). */
  maxPolicyDays: 36_500,
} as const;

const MIN_TIME = Date.parse(LIMITS.minDate);
const MAX_TIME = Date.parse(LIMITS.maxDate);

export const isoDate = z.iso
  .datetime({ offset: true })
  .transform((s) => new Date(s))
  .refine((d) => d.getTime() >= MIN_TIME && d.getTime() <= MAX_TIME, {
    message: `must lie between ${LIMITS.minDate} and ${LIMITS.maxDate}`,
  });
export const uuid = z.uuid();
export { text, unstorableText } from "@/lib/core/validation";

/** Nesting depth of a JSON value (a scalar is 0), counted without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, inner]);
  }
  return deepest;
}

/** Any JSON value nested at most LIMITS.maxToolInputDepth deep: what a tool was called with. */
const toolInput = () =>
  z.unknown().superRefine((v, ctx) => {
    if (jsonDepth(v, LIMITS.maxToolInputDepth) > LIMITS.maxToolInputDepth)
      ctx.addIssue({ code: "custom", message: `nested deeper than ${LIMITS.maxToolInputDepth} levels` });
  });
export const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "lower-case hex sha256");

export const SessionCreateSchema = z
  .object({
    externalId: text().min(1).max(512),
    runtime: text().min(1).max(64),
    title: text().max(500).optional(),
    cwd: text().max(4096).optional(),
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
    seq: z.number().int().min(0).max(LIMITS.maxSeq),
    kind: z.enum(SPAN_KINDS),
    role: text().max(64).optional(),
    toolName: text().max(256).optional(),
    toolInput: toolInput().optional(), // any JSON value: stored exactly, as JSON or (when Postgres cannot hold it) as its text
    toolAnnotations: z
      .object({ readOnlyHint: z.boolean().optional(), destructiveHint: z.boolean().optional() })
      .strict()
      .optional(),
    exitCode: z.number().int().min(LIMITS.minExitCode).max(LIMITS.maxExitCode).optional(),
    /** TOOL_CALL spans (and their results): what became of the call. */
    outcome: z.enum(TOOL_OUTCOMES).optional(),
    /** The subagent that produced the span; omitted for the session's main agent. */
    agentId: text().min(1).max(256).optional(),
    agentType: text().min(1).max(256).optional(),
    cwd: text().max(4096).optional(),
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
  .object({
    spanId: z.string().min(1).max(128),
    byteStart: z.number().int().min(0).max(LIMITS.maxSpanBytes),
    byteEnd: z.number().int().min(0).max(LIMITS.maxSpanBytes),
    sha256,
  })
  .strict()
  .refine((p) => p.byteEnd >= p.byteStart, { message: "byteEnd must not be before byteStart", path: ["byteEnd"] });

export const OmissionManifestSchema = z
  .object({
    omitted: z.array(
      z
        .object({
          kind: z.enum(ATOM_KINDS),
          count: z.number().int().min(0).max(LIMITS.maxSpanBytes),
          values: z.array(z.string().max(LIMITS.maxSpanBytes)).max(100_000).optional(),
        })
        .strict(),
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
    evidenceHorizonDays: z.number().int().min(0).max(LIMITS.maxPolicyDays),
    ttlDays: z
      .object({
        NARRATIVE: z.number().int().min(0).max(LIMITS.maxPolicyDays),
        STRUCTURED: z.number().int().min(0).max(LIMITS.maxPolicyDays),
        SIDE_EFFECTING: z.number().int().min(0).max(LIMITS.maxPolicyDays),
      })
      .strict(),
    evidenceWorkloads: z.boolean(),
    systemConfigPrefixes: z.array(z.string().min(1).max(1024)).max(500),
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
            toolInput: toolInput().optional(), // any JSON value: the body was parsed from JSON
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
    fromSeq: z.number().int().min(0).max(LIMITS.maxSeq).optional(),
    toSeq: z.number().int().min(0).max(LIMITS.maxSeq).optional(),
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

export const PredicateSchema = z
  .object({
    atomKinds: z.array(z.enum(ATOM_KINDS)).optional(),
    effectKinds: z.array(z.enum(SIDE_EFFECT_KINDS)).optional(),
    valuePrefixes: z.array(text().min(1).max(1024)).max(200).optional(),
    excludePrefixes: z.array(text().min(1).max(1024)).max(200).optional(),
    valuePattern: text().max(1000).optional(),
    valuePatternFlags: z
      .string()
      .regex(/^[imsu]*$/)
      .optional(),
    toolNames: z.array(text().max(256)).max(200).optional(),
    argNames: z.array(text().max(256)).max(200).optional(),
    commandPattern: text().max(1000).optional(),
    outsideCwd: z.boolean().optional(),
    includeNegated: z.boolean().optional(),
    outcomes: z.array(z.enum(TOOL_OUTCOMES)).min(1).max(TOOL_OUTCOMES.length).optional(),
  })
  .strict();
