-- The refusals list's totals and a page's first spans as index walks, with no join per refusal
-- (bench:pages at 1M spans and 59,000 refusals: a page past the first took 350-480 ms).
--
-- 1. Every refusal names its request: a refusal whose decision is not known is a request of its
--    own, named by its own id (as the list grouped it). refusal_event_request_idx then holds plain
--    columns, and counting requests is an index-only walk: PostgreSQL reads an expression index
--    (coalesce(request_id, id)) only with the table's rows.
UPDATE "refusal_event" SET "request_id" = "id" WHERE "request_id" IS NULL;
ALTER TABLE "refusal_event" ALTER COLUMN "request_id" SET NOT NULL;

-- 2. Every refusal carries the seq of the span it refused (a span's seq never changes): a page
--    lists each request's first spans by seq without joining every refusal of the page to span.
ALTER TABLE "refusal_event" ADD COLUMN "span_seq" INTEGER;
UPDATE "refusal_event" r SET "span_seq" = s."seq"
  FROM "span" s
 WHERE s."session_id" = r."session_id" AND s."id" = r."span_id";

DROP INDEX "refusal_event_request_idx";
CREATE INDEX "refusal_event_request_idx" ON "refusal_event" ("project_id", "occurred_at", "session_id", "request_id")
  INCLUDE ("cell_class", "cell_provenance", "requester");
