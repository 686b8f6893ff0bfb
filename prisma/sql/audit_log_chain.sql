-- audit_log_chain: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.audit_log_chain()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
DECLARE
  head audit_chain_head%ROWTYPE;
BEGIN
  SELECT * INTO STRICT head FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  NEW.chain_seq := head.seq + 1;
  NEW.prev_hash := head.hash;
  NEW.hash := audit_log_row_hash(NEW);
  UPDATE audit_chain_head SET seq = NEW.chain_seq, hash = NEW.hash WHERE id = 1;
  RETURN NEW;
END;
$function$;

CREATE OR REPLACE TRIGGER audit_log_chain BEFORE INSERT ON public.audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();
