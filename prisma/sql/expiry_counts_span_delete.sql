-- expiry_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span_expiry_count} c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, date_trunc('hour', o.original_expires_at) AS expires_hour,
             custodian_slack_days(o.original_expires_at, o.occurred_at) AS slack_days, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD' AND o.original_expires_at IS NOT NULL
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.expires_hour = d.expires_hour AND c.slack_days = d.slack_days$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_delete();
