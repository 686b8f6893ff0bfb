-- storage_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span_storage_count} c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, o.created_at::date AS day, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD'
       GROUP BY 1, 2, 3
       ORDER BY 1, 2, 3
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.day = d.day$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_delete();
