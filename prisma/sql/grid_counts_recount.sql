-- grid_counts_recount: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_recount()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  days integer := custodian_horizon_days(project);
  anchor text;
BEGIN
  -- Once per node holding the project's sessions: on one node, here; on a Citus cluster, the
  -- trigger runs on every copy of the reference table, each over its node's session shards.
  FOR anchor IN SELECT custodian_session_shards(TG_TABLE_NAME) LOOP
    EXECUTE custodian_shard_sql(anchor, $q$DELETE FROM {span_grid_count} WHERE session_id IN (SELECT id FROM {session} WHERE project_id = $1)$q$)
      USING project;
    EXECUTE custodian_shard_sql(anchor, $q$INSERT INTO {span_grid_count} (session_id, class, replacing_summary_id, code, n)
    SELECT s.session_id, s.class, custodian_grid_replacing(s.replacing_summary_id),
           custodian_grid_code(s.has_pointer, s.original_state, s.original_expires_at, s.occurred_at, $2), count(*)
      FROM {span} s
     WHERE s.session_id IN (SELECT id FROM {session} WHERE project_id = $1) AND s.kind <> 'SUMMARY'
     GROUP BY 1, 2, 3, 4$q$) USING project, days;
  END LOOP;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER grid_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON public.retention_policy FOR EACH ROW WHEN ((old.evidence_horizon_days IS DISTINCT FROM new.evidence_horizon_days)) EXECUTE FUNCTION grid_counts_recount();

CREATE OR REPLACE TRIGGER grid_counts_policy_insert_delete AFTER INSERT OR DELETE ON public.retention_policy FOR EACH ROW EXECUTE FUNCTION grid_counts_recount();
