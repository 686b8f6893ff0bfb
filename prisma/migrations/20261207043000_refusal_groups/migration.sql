-- The refusals list pages by gate request: one row per request (a compaction asked of the gate),
-- its refusals beneath it, so a request is never split across pages. A refusal names its request
-- here (its gate decision's reclamation_id), so a page of requests, their refusals and the list's
-- totals are read from one index without a join per refusal. A refusal whose decision is not known
-- is a request of its own: the list groups by coalesce(request_id, id).
-- AlterTable
ALTER TABLE "refusal_event" ADD COLUMN "request_id" UUID;

UPDATE "refusal_event" r SET "request_id" = g."reclamation_id"
  FROM "gate_decision" g
 WHERE g."session_id" = r."session_id" AND g."id" = r."decision_id";

-- A project's requests by time, newest first: every refusal of one request is written with the
-- request's one time, so (occurred_at, session_id, request) orders requests and keeps each one's
-- refusals together; the filters' columns are included so a page and its totals are an index-only
-- walk. Replaces refusal_event_list_idx (the same leading column and time, the same filters).
-- CreateIndex
CREATE INDEX "refusal_event_request_idx" ON "refusal_event" ("project_id", "occurred_at", "session_id", (coalesce("request_id", "id")))
  INCLUDE ("cell_class", "cell_provenance", "requester");

-- DropIndex
DROP INDEX "refusal_event_list_idx";
