-- CreateTable
CREATE TABLE "span_storage_count" (
    "session_id" UUID NOT NULL,
    "class" "EvidentialClass" NOT NULL,
    "day" DATE NOT NULL,
    "originals" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,

    CONSTRAINT "span_storage_count_pkey" PRIMARY KEY ("session_id","class","day")
);

-- AddForeignKey
ALTER TABLE "span_storage_count" ADD CONSTRAINT "span_storage_count_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- =============================================================================================
-- What retention holds, from counts kept by triggers instead of a scan of every held span: the
-- storage figures (the retention page, and the project overview polled every few seconds) read a
-- few rows per session instead of aggregating a million spans. Counted: spans whose original is
-- held (span.original_state = 'HELD', copied from span_original by span_original_to_span), with
-- their byte_length, by session, class and the UTC day the span was received (created_at, stored
-- as UTC). The figures' definition stays the span scan in lib/server/retention/storage.db.test.ts,
-- which holds these counts to it over random workloads.
--
-- A span's original changes state by an UPDATE of span (span_original's triggers write the copied
-- facts), so the update trigger below sees every change, summaries' class ratchet included.
-- Statement triggers with transition tables cannot name columns: every update of span comes
-- here, and only held spans whose key or bytes moved change a counter. Rows whose count falls to
-- zero are kept (as span_grid_count's are): no delete races a concurrent insert of the same key,
-- and a session has only a few such rows (classes times days it received spans on).
-- =============================================================================================

-- Counter rows are written in key order, so concurrent writers of one session never deadlock on them.
CREATE FUNCTION storage_counts_span_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_storage_count AS c (session_id, class, day, originals, bytes)
  SELECT n.session_id, n.class, n.created_at::date, count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD'
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Only existing counters go down (a held span was counted when it became held); when the session
-- itself is being deleted its counters are already gone and nothing is left to update.
CREATE FUNCTION storage_counts_span_delete() RETURNS trigger AS $$
BEGIN
  UPDATE span_storage_count c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, o.created_at::date AS day, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD'
       GROUP BY 1, 2, 3
       ORDER BY 1, 2, 3
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.day = d.day;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Old rows count against their key and new rows for theirs: a span whose original was swept,
-- damaged, restored, reclassified, re-dated or resized moves between counters; the rest cancel out.
CREATE FUNCTION storage_counts_span_update() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_storage_count AS c (session_id, class, day, originals, bytes)
  SELECT x.session_id, x.class, x.day, sum(x.sign), sum(x.sign * x.byte_length)
    FROM (SELECT n.session_id, n.class, n.created_at::date AS day, 1 AS sign, n.byte_length::bigint AS byte_length
            FROM new_rows n WHERE n.original_state = 'HELD'
          UNION ALL
          SELECT o.session_id, o.class, o.created_at::date, -1, o.byte_length
            FROM old_rows o WHERE o.original_state = 'HELD') x
   GROUP BY 1, 2, 3
  HAVING sum(x.sign) <> 0 OR sum(x.sign * x.byte_length) <> 0
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

INSERT INTO span_storage_count (session_id, class, day, originals, bytes)
SELECT s.session_id, s.class, s.created_at::date, count(*), sum(s.byte_length)
  FROM span s
 WHERE s.original_state = 'HELD'
 GROUP BY 1, 2, 3;

CREATE TRIGGER storage_counts_span_insert AFTER INSERT ON span
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_insert();
CREATE TRIGGER storage_counts_span_delete AFTER DELETE ON span
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_delete();
CREATE TRIGGER storage_counts_span_update AFTER UPDATE ON span
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_update();
