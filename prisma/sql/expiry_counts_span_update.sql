-- expiry_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_expiry_count} AS c (session_id, class, expires_hour, slack_days, originals, bytes)
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
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_update();
