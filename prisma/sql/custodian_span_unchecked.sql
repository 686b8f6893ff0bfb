-- custodian_span_unchecked: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_span_unchecked(state "TranscriptState", kind "SpanKind", seq integer, has_pointer boolean, original "OriginalState")
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT state IN ('RECLAIMED', 'RECLAIMED_HONEST') AND kind <> 'SUMMARY' AND seq IS NOT NULL AND (NOT has_pointer OR original <> 'HELD')
$function$;
