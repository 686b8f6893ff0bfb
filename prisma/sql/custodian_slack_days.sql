-- custodian_slack_days: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_slack_days(expires_at timestamp without time zone, occurred_at timestamp without time zone)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE STRICT
AS $function$
  SELECT floor(extract(epoch from (expires_at - occurred_at)) / 86400)::integer
$function$;
