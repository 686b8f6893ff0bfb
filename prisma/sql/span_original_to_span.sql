-- span_original_to_span: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_original_to_span()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  differ boolean;
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    -- Originals no longer there (deleted, or moved to another span): their spans have none.
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span} s SET original_state = 'ABSENT', original_expires_at = NULL
      FROM old_rows o
     WHERE s.session_id = o.session_id AND s.id = o.span_id
       AND NOT EXISTS (SELECT 1 FROM {span_original} x WHERE x.session_id = o.session_id AND x.span_id = o.span_id)
       AND (s.original_state <> 'ABSENT' OR s.original_expires_at IS NOT NULL)$q$);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- Written only on a change: ingest passes the values with the span already, so a batch of new
    -- originals usually changes nothing. Each original's span is looked up by its key (LIMIT 1 in a
    -- lateral keeps the planner from hashing the whole span table per batch) and span is updated,
    -- and its statement triggers run, only when some differ.
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$SELECT EXISTS (SELECT 1
       FROM new_rows n
      CROSS JOIN LATERAL (
        SELECT 1 FROM {span} s
         WHERE s.session_id = n.session_id AND s.id = n.span_id
           AND (s.original_state IS DISTINCT FROM n.bytes_state
                OR s.original_expires_at IS DISTINCT FROM CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END)
         LIMIT 1) differs)$q$) INTO differ;
    IF differ THEN
      EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$UPDATE {span} s SET original_state = f.state, original_expires_at = f.expires
        FROM (SELECT n.session_id, n.span_id, n.bytes_state AS state,
                     CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END AS expires
                FROM new_rows n) f
       WHERE s.session_id = f.session_id AND s.id = f.span_id
         AND (s.original_state IS DISTINCT FROM f.state OR s.original_expires_at IS DISTINCT FROM f.expires)$q$);
    END IF;
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_original_to_span_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

CREATE OR REPLACE TRIGGER span_original_to_span_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

CREATE OR REPLACE TRIGGER span_original_to_span_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();
