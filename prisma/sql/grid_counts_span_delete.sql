-- grid_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span_grid_count} g SET n = g.n - d.n
    FROM (
      SELECT o.session_id, o.class, custodian_grid_replacing(o.replacing_summary_id) AS replacing,
             custodian_grid_code(o.has_pointer, o.original_state, o.original_expires_at, o.occurred_at, h.days) AS code, count(*) AS n
        FROM old_rows o
        JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM {session} s
               WHERE s.id IN (SELECT DISTINCT session_id FROM old_rows)) h ON h.id = o.session_id
       WHERE o.kind <> 'SUMMARY'
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4
    ) d
   WHERE g.session_id = d.session_id AND g.class = d.class AND g.replacing_summary_id = d.replacing AND g.code = d.code$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_delete();
