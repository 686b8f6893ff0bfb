-- audit_log_row_hash: its current definition (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.audit_log_row_hash(r audit_log)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    r.chain_seq, r.prev_hash, r.id, r.project_id, r.actor_type, r.actor_id, r.actor_label, r.act,
    r.target_type, r.target_id, r."before", r."after", r.reason, r."at")::text, 'UTF8')), 'hex')
$function$;
