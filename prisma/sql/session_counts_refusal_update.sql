-- session_counts_refusal_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_refusal_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} se SET refusal_count = se.refusal_count + d.n
    FROM (SELECT session_id, sum(sign) AS n FROM (SELECT session_id, 1 AS sign FROM new_rows UNION ALL SELECT session_id, -1 FROM old_rows) c GROUP BY session_id) d
   WHERE se.id = d.session_id AND d.n <> 0$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_refusal_update AFTER UPDATE ON public.refusal_event REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_update();
