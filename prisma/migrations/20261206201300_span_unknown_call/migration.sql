-- Calls of tools whose effects are not known, marked on the span: a side-effect question counts
-- them per session (each may have done anything, so each blocks a NO) and read each one's span by
-- key, 20k buffers for 5,090 calls at 1M spans. The partial index holds the facts that count reads
-- (checkable now, in the time range, the call's outcome), so it reads the index alone.
ALTER TABLE "span" ADD COLUMN "unknown_call" BOOLEAN NOT NULL DEFAULT false;

UPDATE "span" s SET "unknown_call" = true
  FROM (SELECT DISTINCT a."session_id", a."span_id" FROM "evidence_atom" a WHERE a."effect" = 'UNKNOWN_TOOL' AND NOT a."negated") u
 WHERE s."session_id" = u."session_id" AND s."id" = u."span_id";

CREATE INDEX "span_unknown_call_idx" ON "span" ("session_id", "seq")
  INCLUDE ("id", "kind", "transcript_state", "has_pointer", "original_state", "original_expires_at", "occurred_at", "outcome", "exit_code")
  WHERE "unknown_call";
