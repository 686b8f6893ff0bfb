-- session_evidence_version_cwd: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_evidence_version_cwd()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.evidence_version := OLD.evidence_version + 1;
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER evidence_version_session_cwd BEFORE UPDATE OF cwd ON public.session FOR EACH ROW WHEN ((old.cwd IS DISTINCT FROM new.cwd)) EXECUTE FUNCTION session_evidence_version_cwd();
