-- session_counts_recount_at_risk: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_recount_at_risk()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  anchor text;
BEGIN
  -- Once per node holding the project's sessions (as grid_counts_recount).
  FOR anchor IN SELECT custodian_session_shards(TG_TABLE_NAME) LOOP
    EXECUTE custodian_shard_sql(anchor, $q$UPDATE {session} se SET at_risk_count = (
      SELECT count(*) FROM {span} s
       WHERE s.session_id = se.id
         AND custodian_span_at_risk(s.original_state, s.original_expires_at, s.class, s.occurred_at, custodian_horizon_days($1)))
     WHERE se.project_id = $1$q$) USING project;
  END LOOP;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON public.retention_policy FOR EACH ROW WHEN ((old.evidence_horizon_days IS DISTINCT FROM new.evidence_horizon_days)) EXECUTE FUNCTION session_counts_recount_at_risk();

CREATE OR REPLACE TRIGGER session_counts_policy_insert_delete AFTER INSERT OR DELETE ON public.retention_policy FOR EACH ROW EXECUTE FUNCTION session_counts_recount_at_risk();
