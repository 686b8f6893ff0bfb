-- Evidence questions over a whole project count the spans they check as every span in scope less
-- those that cannot be checked: keep, per session, the replaced spans that cannot be checked
-- whatever the clock says (the clock-dependent rest, originals past their TTL but not yet swept,
-- is found by index when asked). Maintained by the span count triggers of
-- 20261202122000_scale_read_paths, redefined here with the new count.

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "unchecked_count" INTEGER NOT NULL DEFAULT 0;

-- A replaced span (not a summary, with a seq) that no pointer or no held original backs.
CREATE FUNCTION custodian_span_unchecked(state "TranscriptState", kind "SpanKind", seq integer, has_pointer boolean, original "OriginalState")
  RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT state IN ('RECLAIMED', 'RECLAIMED_HONEST') AND kind <> 'SUMMARY' AND seq IS NOT NULL AND (NOT has_pointer OR original <> 'HELD')
$$;

CREATE OR REPLACE FUNCTION session_counts_span_insert() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + d.non_summary,
    seq_count = se.seq_count + d.seqs,
    seq_min = LEAST(se.seq_min, d.seq_min),
    seq_max = GREATEST(se.seq_max, d.seq_max),
    at_risk_count = se.at_risk_count + d.at_risk,
    lost_count = se.lost_count + d.lost,
    unchecked_count = se.unchecked_count + d.unchecked
  FROM (
    SELECT n.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE n.kind <> 'SUMMARY' AND n.seq IS NOT NULL) AS non_summary,
           count(n.seq) AS seqs,
           min(n.seq) AS seq_min,
           max(n.seq) AS seq_max,
           count(*) FILTER (WHERE custodian_span_at_risk(n.original_state, n.original_expires_at, n.class, n.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE n.original_state = 'DELETED') AS lost,
           count(*) FILTER (WHERE custodian_span_unchecked(n.transcript_state, n.kind, n.seq, n.has_pointer, n.original_state)) AS unchecked
      FROM new_rows n JOIN session s ON s.id = n.session_id
     GROUP BY n.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION session_counts_span_delete() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET
    span_count = se.span_count - d.spans,
    non_summary_count = se.non_summary_count - d.non_summary,
    seq_count = se.seq_count - d.seqs,
    seq_min = (SELECT min(seq) FROM span WHERE session_id = se.id),
    seq_max = (SELECT max(seq) FROM span WHERE session_id = se.id),
    at_risk_count = se.at_risk_count - d.at_risk,
    lost_count = se.lost_count - d.lost,
    unchecked_count = se.unchecked_count - d.unchecked
  FROM (
    SELECT o.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE o.kind <> 'SUMMARY' AND o.seq IS NOT NULL) AS non_summary,
           count(o.seq) AS seqs,
           count(*) FILTER (WHERE custodian_span_at_risk(o.original_state, o.original_expires_at, o.class, o.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE o.original_state = 'DELETED') AS lost,
           count(*) FILTER (WHERE custodian_span_unchecked(o.transcript_state, o.kind, o.seq, o.has_pointer, o.original_state)) AS unchecked
      FROM old_rows o JOIN session s ON s.id = o.session_id
     GROUP BY o.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION session_counts_span_update() RETURNS trigger AS $$
BEGIN
  WITH changes AS (
    SELECT n.session_id, 1 AS sign, n.kind, n.seq, n.class, n.occurred_at, n.original_state, n.original_expires_at, n.transcript_state, n.has_pointer FROM new_rows n
    UNION ALL
    SELECT o.session_id, -1, o.kind, o.seq, o.class, o.occurred_at, o.original_state, o.original_expires_at, o.transcript_state, o.has_pointer FROM old_rows o
  ),
  moved_seqs AS (
    SELECT DISTINCT session_id FROM (
      (SELECT session_id, seq FROM old_rows EXCEPT ALL SELECT session_id, seq FROM new_rows)
      UNION ALL
      (SELECT session_id, seq FROM new_rows EXCEPT ALL SELECT session_id, seq FROM old_rows)
    ) m
  ),
  d AS (
    SELECT c.session_id,
           sum(c.sign) AS spans,
           sum(c.sign) FILTER (WHERE c.kind <> 'SUMMARY' AND c.seq IS NOT NULL) AS non_summary,
           sum(c.sign) FILTER (WHERE c.seq IS NOT NULL) AS seqs,
           sum(c.sign) FILTER (WHERE custodian_span_at_risk(c.original_state, c.original_expires_at, c.class, c.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           sum(c.sign) FILTER (WHERE c.original_state = 'DELETED') AS lost,
           sum(c.sign) FILTER (WHERE custodian_span_unchecked(c.transcript_state, c.kind, c.seq, c.has_pointer, c.original_state)) AS unchecked,
           c.session_id IN (SELECT session_id FROM moved_seqs) AS seqs_moved
      FROM changes c JOIN session s ON s.id = c.session_id
     GROUP BY c.session_id
  )
  UPDATE session se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + COALESCE(d.non_summary, 0),
    seq_count = se.seq_count + COALESCE(d.seqs, 0),
    seq_min = CASE WHEN d.seqs_moved THEN (SELECT min(seq) FROM span WHERE session_id = se.id) ELSE se.seq_min END,
    seq_max = CASE WHEN d.seqs_moved THEN (SELECT max(seq) FROM span WHERE session_id = se.id) ELSE se.seq_max END,
    at_risk_count = se.at_risk_count + COALESCE(d.at_risk, 0),
    lost_count = se.lost_count + COALESCE(d.lost, 0),
    unchecked_count = se.unchecked_count + COALESCE(d.unchecked, 0)
  FROM d
  WHERE se.id = d.session_id
    AND (d.spans <> 0 OR COALESCE(d.non_summary, 0) <> 0 OR COALESCE(d.seqs, 0) <> 0 OR COALESCE(d.at_risk, 0) <> 0
         OR COALESCE(d.lost, 0) <> 0 OR COALESCE(d.unchecked, 0) <> 0 OR d.seqs_moved);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

UPDATE session se SET unchecked_count = c.n
  FROM (SELECT session_id, count(*) AS n FROM span s
         WHERE custodian_span_unchecked(s.transcript_state, s.kind, s.seq, s.has_pointer, s.original_state)
         GROUP BY session_id) c
 WHERE se.id = c.session_id;

-- Replaced spans that weaken their summary, by summary and then pointer: "has a replaced span
-- without a pointer" and "... with one" are each the first entry of a range.
DROP INDEX "span_replaced_weak_idx";
CREATE INDEX "span_replaced_weak_idx" ON "span" ("session_id", "replacing_summary_id", "has_pointer", "class", "transcript_state", "seq")
  WHERE "replacing_summary_id" IS NOT NULL AND "kind" <> 'SUMMARY' AND (NOT "has_pointer" OR "original_state" <> 'HELD');
