-- session_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} se SET
    span_count = se.span_count - d.spans,
    non_summary_count = se.non_summary_count - d.non_summary,
    seq_count = se.seq_count - d.seqs,
    seq_min = (SELECT min(seq) FROM {span} WHERE session_id = se.id),
    seq_max = (SELECT max(seq) FROM {span} WHERE session_id = se.id),
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
      FROM old_rows o JOIN {session} s ON s.id = o.session_id
     GROUP BY o.session_id
  ) d
  WHERE se.id = d.session_id$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_delete();
