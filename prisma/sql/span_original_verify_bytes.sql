-- span_original_verify_bytes: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_original_verify_bytes()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.bytes IS NULL THEN
    NEW.bytes_state := 'DELETED';
  ELSIF encode(sha256(NEW.bytes), 'hex') = (SELECT s.sha256 FROM span s WHERE s.session_id = NEW.session_id AND s.id = NEW.span_id) THEN
    NEW.bytes_state := 'HELD';
  ELSE
    NEW.bytes_state := 'HASH_MISMATCH';
  END IF;
  NEW.verified_at := now();
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER span_original_verify_bytes BEFORE INSERT OR UPDATE OF bytes, bytes_state ON public.span_original FOR EACH ROW EXECUTE FUNCTION span_original_verify_bytes();
