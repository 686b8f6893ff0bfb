-- session_counts_compaction_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_compaction_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} se SET unasked_compaction_count = se.unasked_compaction_count + d.n
  FROM (SELECT session_id, count(*) AS n FROM new_rows WHERE NOT asked GROUP BY session_id) d
  WHERE se.id = d.session_id$q$);
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER session_counts_compaction_insert AFTER INSERT ON public.compaction REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_insert();
