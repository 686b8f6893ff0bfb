-- A grid cell's spans in transcript order: the grid no longer scans a session's spans to count
-- them (span_grid_count keeps the counts), so its index gives way to one that lists a cell page by
-- page, stopping at the page, with every fact the page's statuses rest on.
DROP INDEX "span_grid_idx";

CREATE INDEX "span_cell_idx" ON "span"("session_id", "class", "seq", "occurred_at", "id", "kind", "transcript_state", "has_pointer", "original_state", "original_expires_at");

-- A session's summaries (few among its spans), for the grid and evidence questions.
CREATE INDEX "span_summary_idx" ON "span" ("session_id", "occurred_at") WHERE "kind" = 'SUMMARY';
