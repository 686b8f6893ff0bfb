-- custodian_horizon_days: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_horizon_days(project uuid)
 RETURNS integer
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
  SELECT COALESCE((SELECT evidence_horizon_days FROM retention_policy WHERE project_id = project), custodian_default_horizon_days())
$function$;
