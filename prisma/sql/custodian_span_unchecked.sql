-- custodian_span_unchecked: its current definition (how to change it: prisma/sql/README.md).
-- Written from REPLACED_RULE and STATUS_RULE in lib/server/provenance (unchecked-sql.ts): edit the rules there, not here.

CREATE OR REPLACE FUNCTION public.custodian_span_unchecked(state "TranscriptState", kind "SpanKind", seq integer, has_pointer boolean, original "OriginalState")
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT state in ('RECLAIMED', 'RECLAIMED_HONEST') and kind <> 'SUMMARY' and seq is not null and (not has_pointer or original <> 'HELD')
$function$;
