-- audit_log_is_append_only: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.audit_log_is_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$function$;

CREATE OR REPLACE TRIGGER audit_chain_head_fixed BEFORE DELETE OR TRUNCATE ON public.audit_chain_head FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();

CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE DELETE OR UPDATE ON public.audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();

CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON public.audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
