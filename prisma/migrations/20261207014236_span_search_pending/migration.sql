-- =============================================================================================
-- Ingest no longer waits for search's text indexes (issues 28 and 29): an original stored with
-- its bytes gets a row here, in the same statement; the search indexer moves these into
-- span_search in batches. Search reads both (a pending span's text is projected as it is read),
-- so a span is found from the moment it is stored. The next migration changes the trigger.
-- =============================================================================================

CREATE TABLE "span_search_pending" (
    "session_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,

    CONSTRAINT "span_search_pending_pkey" PRIMARY KEY ("session_id","span_id")
);

ALTER TABLE "span_search_pending" ADD CONSTRAINT "span_search_pending_session_id_span_id_fkey" FOREIGN KEY ("session_id", "span_id") REFERENCES "span_original"("session_id", "span_id") ON DELETE CASCADE ON UPDATE CASCADE;
