-- From prisma/sql/custodian_grid_code.sql
-- custodian_grid_code: its current definition (how to change it: prisma/sql/README.md).
-- Written from STATUS_RULE in lib/server/provenance/status-sql.ts: edit the rule there, not here.

CREATE OR REPLACE FUNCTION public.custodian_grid_code(has_pointer boolean, state "OriginalState", expires timestamp without time zone, occurred timestamp without time zone, horizon_days integer)
 RETURNS smallint
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT (CASE WHEN not has_pointer THEN 0
               WHEN state <> 'HELD' THEN 1
               WHEN expires is null THEN 4
               WHEN expires < occurred + make_interval(days => horizon_days) THEN 2
               ELSE 3 END)::smallint
$function$;
