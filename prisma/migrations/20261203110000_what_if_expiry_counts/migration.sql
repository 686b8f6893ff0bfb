-- CreateTable
CREATE TABLE "span_expiry_count" (
    "session_id" UUID NOT NULL,
    "class" "EvidentialClass" NOT NULL,
    "expires_hour" TIMESTAMP(3) NOT NULL,
    "slack_days" INTEGER NOT NULL,
    "originals" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,

    CONSTRAINT "span_expiry_count_pkey" PRIMARY KEY ("session_id","class","expires_hour","slack_days")
);

-- AddForeignKey
ALTER TABLE "span_expiry_count" ADD CONSTRAINT "span_expiry_count_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- =============================================================================================
-- The retention what-if counts held originals by class and day of deletion under two policies,
-- and which are EXPIRING under each. Reading every held span for that (an index-only scan of
-- span_held_idx) costs about two seconds at a million spans; these counts, kept by triggers, let it
-- read a few rows per session instead. Counted: spans whose original is held and has an expiry
-- (span.original_state = 'HELD', original_expires_at not null: pinned originals never expire), with
-- their byte_length, by session, class, the UTC hour the expiry falls in, and the slack: whole days
-- from the span's occurrence to its expiry, floor((original_expires_at - occurred_at) / 1 day).
--
-- Why those keys keep the what-if exact: a policy moves a class's expiries by whole days d, and a
-- span is EXPIRING when expiry + d < occurred_at + horizon, i.e. slack < horizon - d (both sides
-- whole days); its day of deletion is floor((expiry - now) / 1 day) + d, the same for every expiry
-- of an hour except in the one hour a day that a day boundary (now + n days) cuts, which the what-if
-- splits by reading that hour's spans from span_held_idx.
--
-- As with span_storage_count: the update trigger sees every change of the counted facts (the
-- original's state and expiry reach span through span_original_to_span), only keys whose count or
-- bytes moved are written, in key order, and rows that fall to zero are kept.
-- =============================================================================================

CREATE FUNCTION custodian_slack_days(expires_at timestamp, occurred_at timestamp) RETURNS integer AS $$
  SELECT floor(extract(epoch from (expires_at - occurred_at)) / 86400)::integer
$$ LANGUAGE sql IMMUTABLE STRICT;

CREATE FUNCTION expiry_counts_span_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_expiry_count AS c (session_id, class, expires_hour, slack_days, originals, bytes)
  SELECT n.session_id, n.class, date_trunc('hour', n.original_expires_at), custodian_slack_days(n.original_expires_at, n.occurred_at),
         count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD' AND n.original_expires_at IS NOT NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, expires_hour, slack_days)
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Only existing counters go down; when the session itself is being deleted they are already gone.
CREATE FUNCTION expiry_counts_span_delete() RETURNS trigger AS $$
BEGIN
  UPDATE span_expiry_count c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, date_trunc('hour', o.original_expires_at) AS expires_hour,
             custodian_slack_days(o.original_expires_at, o.occurred_at) AS slack_days, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD' AND o.original_expires_at IS NOT NULL
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.expires_hour = d.expires_hour AND c.slack_days = d.slack_days;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Old rows count against their key and new rows for theirs: an original swept, damaged, pinned,
-- unpinned, extended or shortened, a span reclassified or re-dated moves between counters.
CREATE FUNCTION expiry_counts_span_update() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_expiry_count AS c (session_id, class, expires_hour, slack_days, originals, bytes)
  SELECT x.session_id, x.class, x.expires_hour, x.slack_days, sum(x.sign), sum(x.sign * x.byte_length)
    FROM (SELECT n.session_id, n.class, date_trunc('hour', n.original_expires_at) AS expires_hour,
                 custodian_slack_days(n.original_expires_at, n.occurred_at) AS slack_days, 1 AS sign, n.byte_length::bigint AS byte_length
            FROM new_rows n WHERE n.original_state = 'HELD' AND n.original_expires_at IS NOT NULL
          UNION ALL
          SELECT o.session_id, o.class, date_trunc('hour', o.original_expires_at),
                 custodian_slack_days(o.original_expires_at, o.occurred_at), -1, o.byte_length
            FROM old_rows o WHERE o.original_state = 'HELD' AND o.original_expires_at IS NOT NULL) x
   GROUP BY 1, 2, 3, 4
  HAVING sum(x.sign) <> 0 OR sum(x.sign * x.byte_length) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, expires_hour, slack_days)
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

INSERT INTO span_expiry_count (session_id, class, expires_hour, slack_days, originals, bytes)
SELECT s.session_id, s.class, date_trunc('hour', s.original_expires_at), custodian_slack_days(s.original_expires_at, s.occurred_at),
       count(*), sum(s.byte_length)
  FROM span s
 WHERE s.original_state = 'HELD' AND s.original_expires_at IS NOT NULL
 GROUP BY 1, 2, 3, 4;

CREATE TRIGGER expiry_counts_span_insert AFTER INSERT ON span
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_insert();
CREATE TRIGGER expiry_counts_span_delete AFTER DELETE ON span
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_delete();
CREATE TRIGGER expiry_counts_span_update AFTER UPDATE ON span
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_update();
