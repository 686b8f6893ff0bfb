-- evidence_atom_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.evidence_atom_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {evidence_atom} a USING old_rows o WHERE a.session_id = o.session_id AND a.span_id = o.id$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER evidence_atom_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_atom_span_delete();
