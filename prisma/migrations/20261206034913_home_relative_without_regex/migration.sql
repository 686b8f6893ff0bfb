-- From prisma/sql/custodian_home_relative.sql
-- custodian_home_relative: its current definition (how to change it: prisma/sql/README.md).
-- String tests rather than a regular expression: it runs for every candidate path of a question
-- asking about home-relative prefixes (~/.ssh/, ~/.bashrc), and the embedded database's regular
-- expressions cost tens of microseconds each. The result for every path is the same as
-- regexp_replace(path, '^/(home|Users)/[^/]+/?', '') under /home/<user> and /Users/<user>, so the
-- index built on it stays valid.

CREATE OR REPLACE FUNCTION public.custodian_home_relative(path text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE
    WHEN path = '/root' THEN ''
    WHEN path LIKE '/root/%' THEN substr(path, 7)
    WHEN path LIKE '/home/%' AND split_part(substr(path, 7), '/', 1) <> ''
      THEN substr(path, 8 + length(split_part(substr(path, 7), '/', 1)))
    WHEN path LIKE '/Users/%' AND split_part(substr(path, 8), '/', 1) <> ''
      THEN substr(path, 9 + length(split_part(substr(path, 8), '/', 1)))
  END
$function$;
