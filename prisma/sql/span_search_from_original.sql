-- span_search_from_original: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_search_from_original()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- span_search holds what search reads of every original whose bytes are held; the originals
  -- stored since the search indexer last ran wait in span_search_pending (search reads them there,
  -- projecting their text as it reads). Once the bytes are gone (the sweeper), span_search holds
  -- what is kept of the span in their place; nothing of a deleted span (span_search_pending follows
  -- its original by foreign key).
  IF TG_OP = 'DELETE' THEN
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {span_search} x USING old_rows o WHERE x.session_id = o.session_id AND x.span_id = o.span_id$q$);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    -- Only the key: the text indexes cost more than the rest of a span's ingest, and are written by
    -- the indexer in batches, off the writer's path.
    EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_search_pending} (session_id, span_id)
    SELECT n.session_id, n.span_id FROM new_rows n WHERE n.bytes IS NOT NULL
    ON CONFLICT DO NOTHING$q$);
    RETURN NULL;
  END IF;
  -- Bytes just gone (the sweeper): what Custodian keeps of the span (custodian_kept_text: its tool
  -- name and evidence atoms) takes their place, marked kept, so a search still finds the span there
  -- and never reads bytes that are no longer held; a span that keeps nothing leaves. Each original's
  -- span and session are looked up by key (a lateral with LIMIT 1, as span_original_to_span does,
  -- so that a batch never hashes the span table). The pending row goes first: an indexer holding it
  -- is waited for here, and its row in span_search is then overwritten, never written after.
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {span_search_pending} p USING new_rows n
   WHERE n.bytes IS NULL AND p.session_id = n.session_id AND p.span_id = n.span_id$q$);
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_search} (project_id, session_id, span_id, occurred_at, body, words, kept)
  SELECT se.project_id, n.session_id, n.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body), true
    FROM new_rows n
    JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
   CROSS JOIN LATERAL (SELECT s.occurred_at FROM {span} s WHERE s.session_id = n.session_id AND s.id = n.span_id LIMIT 1) s
   CROSS JOIN LATERAL (SELECT se.project_id FROM {session} se WHERE se.id = n.session_id LIMIT 1) se
   CROSS JOIN LATERAL (SELECT custodian_kept_text(n.session_id, n.span_id) AS body) t
   WHERE n.bytes IS NULL AND o.bytes IS NOT NULL AND t.body IS NOT NULL
  ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words, kept = true$q$);
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {span_search} x USING new_rows n
   WHERE n.bytes IS NULL AND NOT x.kept AND x.session_id = n.session_id AND x.span_id = n.span_id$q$);
  -- Bytes back or of another length: indexed again, by the indexer. The pending row goes first, for
  -- the same reason. Pins, extensions and scrubs leave the bytes as they were and cost nothing here.
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$INSERT INTO {span_search_pending} (session_id, span_id)
  SELECT n.session_id, n.span_id
    FROM new_rows n JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
   WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
  ON CONFLICT DO NOTHING$q$);
  EXECUTE custodian_shard_sql(TG_TABLE_NAME, $q$DELETE FROM {span_search} x USING new_rows n JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
   WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
     AND x.session_id = n.session_id AND x.span_id = n.span_id$q$);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_search_from_original_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();
