-- storage_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_storage_count} AS c (session_id, class, day, originals, bytes)
  SELECT x.session_id, x.class, x.day, sum(x.sign), sum(x.sign * x.byte_length)
    FROM (SELECT n.session_id, n.class, n.created_at::date AS day, 1 AS sign, n.byte_length::bigint AS byte_length
            FROM new_rows n WHERE n.original_state = 'HELD'
          UNION ALL
          SELECT o.session_id, o.class, o.created_at::date, -1, o.byte_length
            FROM old_rows o WHERE o.original_state = 'HELD') x
   GROUP BY 1, 2, 3
  HAVING sum(x.sign) <> 0 OR sum(x.sign * x.byte_length) <> 0
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_update();
