-- storage_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_storage_count} AS c (session_id, class, day, originals, bytes)
  SELECT n.session_id, n.class, n.created_at::date, count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD'
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_insert();
