-- session_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} se SET
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
      FROM new_rows n JOIN {session} s ON s.id = n.session_id
     GROUP BY n.session_id
  ) d
  WHERE se.id = d.session_id$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_insert();
