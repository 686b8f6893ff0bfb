-- The dashboard's lists page on the server with exact totals (page numbers in the URL). An offset
-- walks its index entry by entry, so each list's order and filters are read from one index that
-- holds them all, never from the table's rows:
--
-- A session's spans in transcript order (seq, then time and id; summaries, with no seq, last),
-- unfiltered or by kind, transcript state or provenance status: the page and its exact total are
-- an index-only walk. span_cell_idx leads with the class, so without a class filter it had to read
-- and sort all of a 100,000-span session (150-370 ms for a middle page at 1M spans). Prisma's
-- schema language cannot express INCLUDE: schema.prisma names the index in a comment.
-- CreateIndex
CREATE INDEX "span_list_idx" ON "span" ("session_id", "seq", "occurred_at", "id")
  INCLUDE ("kind", "class", "transcript_state", "has_pointer", "original_state", "original_expires_at");

-- A project's refusals by time with what the list filters on (cell, requester, session): a deep
-- page and a filtered total without a heap fetch per refusal (a middle page read 30,000 rows'
-- heap pages; a cell filter scanned the table).
-- CreateIndex
CREATE INDEX "refusal_event_list_idx" ON "refusal_event" ("project_id", "occurred_at", "id")
  INCLUDE ("session_id", "cell_class", "cell_provenance", "requester");

-- A project's import jobs by status, newest first: the status filter and its total.
-- CreateIndex
CREATE INDEX "import_job_project_id_status_created_at_idx" ON "import_job" ("project_id", "status", "created_at");
