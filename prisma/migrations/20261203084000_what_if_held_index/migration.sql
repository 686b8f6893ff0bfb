-- The retention what-if reads every held original of a project (its class, expiry, the span's
-- occurrence and its bytes) to count what each policy deletes per day, and ranges of them by class
-- and expiry for the first deletions and the replaced spans due. A partial covering index of held
-- originals makes those index-only scans (about a tenth of the span table's size at a million
-- spans) instead of reads of the whole table. Prisma's schema language cannot express a partial
-- index with INCLUDE columns: schema.prisma names it in a comment on the span model.
CREATE INDEX "span_held_idx" ON "span" ("session_id", "class", "original_expires_at", "occurred_at")
  INCLUDE ("byte_length", "id", "kind", "has_pointer", "transcript_state")
  WHERE "original_state" = 'HELD';
