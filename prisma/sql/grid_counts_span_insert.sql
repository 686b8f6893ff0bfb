-- grid_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_grid_count} AS g (session_id, class, replacing_summary_id, code, n)
  SELECT n.session_id, n.class, custodian_grid_replacing(n.replacing_summary_id),
         custodian_grid_code(n.has_pointer, n.original_state, n.original_expires_at, n.occurred_at, h.days), count(*)
    FROM new_rows n
    JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM {session} s
           WHERE s.id IN (SELECT DISTINCT session_id FROM new_rows)) h ON h.id = n.session_id
   WHERE n.kind <> 'SUMMARY'
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, replacing_summary_id, code) DO UPDATE SET n = g.n + excluded.n$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_insert();
