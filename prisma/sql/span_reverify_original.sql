-- span_reverify_original: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_reverify_original()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE span_original SET bytes_state = bytes_state WHERE session_id = NEW.session_id AND span_id = NEW.id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_reverify_original AFTER UPDATE OF sha256 ON public.span FOR EACH ROW WHEN ((old.sha256 IS DISTINCT FROM new.sha256)) EXECUTE FUNCTION span_reverify_original();
