-- span_unknown_call_from_atoms: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_unknown_call_from_atoms()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- Atoms are written once, after their span, and never changed: a span is a call of a tool whose
  -- effects are not known from the statement that writes such an atom of it on. Most statements
  -- write none, and then update nothing (an UPDATE would fire span's statement triggers for no row).
  IF EXISTS (SELECT 1 FROM new_rows n WHERE n.effect = 'UNKNOWN_TOOL' AND NOT n.negated) THEN
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span} s SET unknown_call = true
      FROM (SELECT DISTINCT n.session_id, n.span_id FROM new_rows n WHERE n.effect = 'UNKNOWN_TOOL' AND NOT n.negated) u
     WHERE s.session_id = u.session_id AND s.id = u.span_id AND NOT s.unknown_call$q$);
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_unknown_call_from_atoms AFTER INSERT ON public.evidence_atom REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_unknown_call_from_atoms();
