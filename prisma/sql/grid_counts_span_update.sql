-- grid_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_grid_count} AS g (session_id, class, replacing_summary_id, code, n)
  SELECT c.session_id, c.class, custodian_grid_replacing(c.replacing_summary_id),
         custodian_grid_code(c.has_pointer, c.original_state, c.original_expires_at, c.occurred_at, h.days), sum(c.sign)
    FROM (SELECT n.session_id, 1 AS sign, n.kind, n.class, n.replacing_summary_id, n.has_pointer, n.original_state, n.original_expires_at, n.occurred_at FROM new_rows n
          UNION ALL
          SELECT o.session_id, -1, o.kind, o.class, o.replacing_summary_id, o.has_pointer, o.original_state, o.original_expires_at, o.occurred_at FROM old_rows o) c
    JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM {session} s
           WHERE s.id IN (SELECT session_id FROM new_rows UNION SELECT session_id FROM old_rows)) h ON h.id = c.session_id
   WHERE c.kind <> 'SUMMARY'
   GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, replacing_summary_id, code) DO UPDATE SET n = g.n + excluded.n$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_update();
