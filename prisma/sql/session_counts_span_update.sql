-- session_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$WITH changes AS (
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
      FROM changes c JOIN {session} s ON s.id = c.session_id
     GROUP BY c.session_id
  )
  UPDATE {session} se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + COALESCE(d.non_summary, 0),
    seq_count = se.seq_count + COALESCE(d.seqs, 0),
    seq_min = CASE WHEN d.seqs_moved THEN (SELECT min(seq) FROM {span} WHERE session_id = se.id) ELSE se.seq_min END,
    seq_max = CASE WHEN d.seqs_moved THEN (SELECT max(seq) FROM {span} WHERE session_id = se.id) ELSE se.seq_max END,
    at_risk_count = se.at_risk_count + COALESCE(d.at_risk, 0),
    lost_count = se.lost_count + COALESCE(d.lost, 0),
    unchecked_count = se.unchecked_count + COALESCE(d.unchecked, 0)
  FROM d
  WHERE se.id = d.session_id
    AND (d.spans <> 0 OR COALESCE(d.non_summary, 0) <> 0 OR COALESCE(d.seqs, 0) <> 0 OR COALESCE(d.at_risk, 0) <> 0
         OR COALESCE(d.lost, 0) <> 0 OR COALESCE(d.unchecked, 0) <> 0 OR d.seqs_moved)$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_update();
