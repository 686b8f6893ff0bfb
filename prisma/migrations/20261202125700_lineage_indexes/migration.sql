-- Indexes for evidence questions over summaries at scale (none of them expressible in Prisma's
-- schema language, which ignores partial indexes when it diffs). A summary's text blocks a proof
-- of absence when some original below it cannot be checked; these find, per replacing summary,
-- the replaced spans that make it so, without walking every summary's lineage.

-- A summary's replaced spans (a span's replacing_summary_id), by seq: whether it has any, and the
-- first seq it stands for.
CREATE INDEX "span_replaced_by_idx" ON "span" ("session_id", "replacing_summary_id", "seq")
  WHERE "replacing_summary_id" IS NOT NULL;

-- Replaced spans whose original cannot back their summary whatever the clock says (no pointer,
-- or not held), with what decides whether they also block.
CREATE INDEX "span_replaced_weak_idx" ON "span" ("session_id", "replacing_summary_id", "class", "transcript_state", "has_pointer", "seq")
  WHERE "replacing_summary_id" IS NOT NULL AND "kind" <> 'SUMMARY' AND (NOT "has_pointer" OR "original_state" <> 'HELD');

-- Replaced spans backed by a held original until it expires: the clock-dependent rest.
CREATE INDEX "span_replaced_expiry_idx" ON "span" ("original_expires_at")
  WHERE "replacing_summary_id" IS NOT NULL AND "kind" <> 'SUMMARY' AND "has_pointer" AND "original_state" = 'HELD';

-- Spans the question engine never sees (no seq, not a summary); none are written today.
CREATE INDEX "span_unsequenced_idx" ON "span" ("session_id", "replacing_summary_id")
  WHERE "kind" <> 'SUMMARY' AND "seq" IS NULL;

-- The unchecked-span index also carries what a blocker reports, so listing blockers reads no rows.
DROP INDEX "span_unchecked_idx";
CREATE INDEX "span_unchecked_idx" ON "span" ("session_id", "class", "occurred_at")
  INCLUDE ("id", "seq", "transcript_state", "has_pointer", "original_state", "original_expires_at")
  WHERE "transcript_state" IN ('RECLAIMED', 'RECLAIMED_HONEST') AND "kind" <> 'SUMMARY' AND "seq" IS NOT NULL
    AND (NOT "has_pointer" OR "original_state" <> 'HELD');
