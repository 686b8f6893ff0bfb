-- session_evidence_version_bump: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_evidence_version_bump()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {session} SET evidence_version = evidence_version + 1
   WHERE id IN (SELECT DISTINCT session_id FROM changed_rows)$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER evidence_version_skipped_delete AFTER DELETE ON public.skipped_record REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_skipped_insert AFTER INSERT ON public.skipped_record REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_update AFTER UPDATE ON public.span REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_delete AFTER DELETE ON public.summary_link REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_insert AFTER INSERT ON public.summary_link REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_update AFTER UPDATE ON public.summary_link REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
