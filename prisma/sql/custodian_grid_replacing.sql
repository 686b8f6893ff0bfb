-- custodian_grid_replacing: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_grid_replacing(replacing uuid)
 RETURNS uuid
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT COALESCE(replacing, '00000000-0000-0000-0000-000000000000'::uuid)
$function$;
