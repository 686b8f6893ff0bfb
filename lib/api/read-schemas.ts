/** The read endpoints' shapes: a project's sessions and a session's spans, a page at a time. */
import { z } from "zod";
import { TOOL_OUTCOMES } from "@/lib/evidence/outcomes";
import { EVIDENTIAL_CLASSES, PROVENANCE_STATUSES, SPAN_KINDS } from "@/lib/evidence/types";
import { LIMITS, SessionSchema, sha256, text, uuid } from "./schemas";

/** Paging of the read endpoints: a page size and the cursor the previous page returned. */
const pageQuery = {
  limit: z.coerce.number().int().min(1).max(LIMITS.listMax).default(LIMITS.listDefault),
  cursor: text().min(1).max(512).optional(),
};

export const SessionListQuerySchema = z
  .object({ ...pageQuery, runtime: text().min(1).max(100).optional(), externalId: text().min(1).max(1000).optional() })
  .strict();

export const SessionListSchema = z.object({
  sessions: z.array(
    // A session as POST /sessions answers it, with its activity and counts instead of "created".
    SessionSchema.omit({ created: true }).extend({
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
