-- custodian_span_at_risk: its current definition (how to change it: prisma/sql/README.md).
-- Written from STATUS_RULE in lib/server/provenance/status-sql.ts (at-risk-sql.ts): edit the rule there, not here.

CREATE OR REPLACE FUNCTION public.custodian_span_at_risk(state "OriginalState", expires timestamp without time zone, cls "EvidentialClass", occurred timestamp without time zone, horizon_days integer)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT COALESCE(state IN ('HELD', 'HASH_MISMATCH') AND cls <> 'NARRATIVE' AND expires < occurred + make_interval(days => horizon_days), false)
$function$;
