-- custodian_default_horizon_days: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_default_horizon_days()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$ SELECT 400 $function$;
