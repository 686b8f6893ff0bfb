-- custodian_home_relative: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_home_relative(path text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE
    WHEN path = '/root' THEN ''
    WHEN path LIKE '/root/%' THEN substr(path, 7)
    WHEN path ~ '^/(home|Users)/[^/]+(/|$)' THEN regexp_replace(path, '^/(home|Users)/[^/]+/?', '')
  END
$function$;
