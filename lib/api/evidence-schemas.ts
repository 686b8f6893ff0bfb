/**
 * The evidence question's public shapes: the question as POST /api/v1/evidence/query (and the MCP
 * tool) takes it, the answer as every reader is given it, and a question job as it is polled. The
 * answer's shape is `presentAnswer`'s (lib/server/questions); the type check below keeps the two
 * equal.
 */
import { z } from "zod";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { COMPLETENESS_CONDITIONS } from "@/lib/evidence/questions/completeness";
import { ATOM_KINDS, EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS } from "@/lib/evidence/types";
import type { EvidenceAnswerJson, QuestionJobJson } from "@/lib/server/questions";
import { isoDate, LIMITS, PredicateSchema, sha256, uuid } from "./schemas";

const listWindow = z
  .object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(LIMITS.evidenceListMax).default(LIMITS.evidenceListDefault),
  })
  .strict();

/** The question: canned by id, or a predicate; a scope of sessions and a time range (from inclusive, to exclusive). */
export const EvidenceQuestionSchema = z.union([
  z.object({ canned: z.string().min(1).max(200) }).strict(),
  z.object({ predicate: PredicateSchema, title: z.string().max(200).optional() }).strict(),
]);

export const EvidenceScopeSchema = z
  .object({ sessionIds: z.array(uuid).min(1).max(10_000).optional(), from: isoDate.optional(), to: isoDate.optional() })
  .strict()
  .default({});

export const EvidenceQuerySchema = z
  .object({
    question: EvidenceQuestionSchema,
    scope: EvidenceScopeSchema,
    /** Which part of each list to return: an answer over a whole project can name tens of thousands of blockers. */
    page: z.object({ citations: listWindow.optional(), blockers: listWindow.optional() }).strict().default({}),
    /**
     * Answer in the background: 202 with a job to poll (GET /api/v1/evidence/jobs/{id}). A question
     * still judging after 5 seconds goes on as a job anyway.
     */
    async: z.boolean().optional(),
  })
  .strict();

const completenessCondition = z.object({
  id: z.enum(COMPLETENESS_CONDITIONS),
  holds: z.boolean(),
  statement: z.string(),
  blockedBy: z.string().optional(),
});

/** Where a page of a list starts, and the offset to ask with for the next (null: none follows). */
const pageOf = z.object({ offset: z.number().int(), next: z.number().int().nullable() });

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
      /** The span blocks only because its call's outcome is unknown or contradicted. */
      outcomeInDoubt: z.literal(true).optional(),
      /** The span blocks because it calls a tool whose effects are not known. */
      unknownEffect: z.literal(true).optional(),
    }),
  ),
  /**
   * All citations and blockers of the answer, counted exactly; the lists above are the page asked
   * for. Rows past the first 110,000 of each list (in the engine's order) are counted, not listed.
   */
  citationCount: z.number().int(),
  blockerCount: z.number().int(),
  /** Each list's page: where it starts, and the offset of the next page while more remain. */
  pages: z.object({ citations: pageOf, blockers: pageOf }),
  gaps: z.array(z.object({ sessionId: uuid, fromSeq: z.number().int(), toSeq: z.number().int() })),
  checkedSpans: z.number().int(),
  /**
   * Sessions of the scope (all the project's when it names none) with at least one span in its time
   * range, summaries included (any span when it has none): the sessions the checked spans come from.
   */
  sessionsInScope: z.number().int(),
  scopeComplete: z.boolean(),
  /** Records the sessions' imports skipped: each blocks a NO. */
  skippedRecords: z.array(z.object({ sessionId: uuid, line: z.number().int(), reason: z.string() })),
  /** Nothing was in scope: never a NO. */
  noSpansInScope: z.boolean(),
  /** The completeness case: each condition a NO rests on, whether it holds, what blocks it where not. */
  completeness: z.object({ holds: z.boolean(), conditions: z.array(completenessCondition) }),
  /** Distinct cited calls by outcome, and the same in words ("3 attempts: 2 failed, 1 succeeded"). */
  outcomes: z.partialRecord(z.enum(TOOL_OUTCOMES), z.number().int()),
  outcomeSummary: z.string(),
});

/** A question job: RUNNING with progress, DONE with the answer, or FAILED with why. */
export const QuestionJobSchema = z.object({
  id: uuid,
  status: z.enum(["RUNNING", "DONE", "FAILED"]),
  candidateSpans: z.number().int(),
  sessionsDone: z.number().int(),
  sessionsTotal: z.number().int(),
  /** The answer as POST /api/v1/evidence/query returns it; null until DONE, and for an answer kept in an earlier form. */
  answer: EvidenceAnswerSchema.nullable(),
  /** Why a FAILED job has no answer, or why a DONE one no longer has one (ask again). */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** 202 to a question that goes on as a job: the job as GET /api/v1/evidence/jobs/{id} returns it. */
export const QuestionJobAcceptedSchema = z.object({ job: QuestionJobSchema });

// The presenter's types and these schemas describe one shape: a field added to one and not the
// other fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const answersAgree: Same<z.output<typeof EvidenceAnswerSchema>, EvidenceAnswerJson> = true;
const jobsAgree: Same<z.output<typeof QuestionJobSchema>, QuestionJobJson> = true;
void answersAgree;
void jobsAgree;
