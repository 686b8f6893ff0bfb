-- expiry_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_expiry_count} AS c (session_id, class, expires_hour, slack_days, originals, bytes)
  SELECT n.session_id, n.class, date_trunc('hour', n.original_expires_at), custodian_slack_days(n.original_expires_at, n.occurred_at),
         count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD' AND n.original_expires_at IS NOT NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, expires_hour, slack_days)
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_insert();
