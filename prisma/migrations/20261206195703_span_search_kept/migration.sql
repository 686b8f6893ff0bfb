-- =============================================================================================
-- Search keeps finding a span after the sweeper deletes its original (issue 28: "spans whose
-- original has expired still show the match in what is kept, marked as such"). Once the bytes are
-- gone, span_search holds in their place what Custodian keeps of the span (custodian_kept_text: its
-- tool name and the text of its evidence atoms), with `kept` set: a hit there is marked EXPIRED and
-- carries no byte range, since the bytes it would name no longer exist. A span that keeps nothing
-- still leaves the index. The same trigger writes it, in the sweeper's own statement.
-- =============================================================================================

-- A constant default: no table rewrite.
ALTER TABLE "span_search" ADD COLUMN "kept" BOOLEAN NOT NULL DEFAULT false;

-- From prisma/sql/custodian_kept_text.sql
-- custodian_kept_text: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_kept_text(session uuid, span uuid)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
-- What search reads of a span once its original's bytes are gone: what Custodian keeps of it, its
-- tool name and the text of its evidence atoms (paths, commands, ids, URLs...), each text once, one
-- a line, in the order they were found (the first 65,536 characters). Null when nothing is kept.
-- The span row and evidence_atom are read by key: their primary keys lead with (session, span).
SELECT nullif(left(string_agg(k.text, E'\n' ORDER BY k.first), 65536), '')
  FROM (SELECT u.text, min(u.ordinal) AS first
          FROM (SELECT s.tool_name AS text, -1 AS ordinal FROM span s WHERE s.session_id = $1 AND s.id = $2 AND s.tool_name IS NOT NULL
                UNION ALL
                SELECT a.text, a.ordinal FROM evidence_atom a WHERE a.session_id = $1 AND a.span_id = $2) u
         WHERE u.text <> ''
         GROUP BY u.text) k
$function$;

-- From prisma/sql/span_search_from_original.sql
-- span_search_from_original: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_search_from_original()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- span_search holds what search reads of every original whose bytes are held, written with them
  -- (ingest, imports, summaries); once the bytes are gone (the sweeper), what is kept of the span
  -- in their place; nothing of a deleted span.
  IF TG_OP = 'DELETE' THEN
    DELETE FROM span_search x USING old_rows o WHERE x.session_id = o.session_id AND x.span_id = o.span_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    -- Bytes just gone (the sweeper): what Custodian keeps of the span (custodian_kept_text: its
    -- tool name and evidence atoms) takes their place, marked kept, so a search still finds the
    -- span there and never reads bytes that are no longer held; a span that keeps nothing leaves.
    INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words, kept)
    SELECT se.project_id, n.session_id, n.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body), true
      FROM new_rows n
      JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
     CROSS JOIN LATERAL (SELECT s.occurred_at FROM span s WHERE s.session_id = n.session_id AND s.id = n.span_id LIMIT 1) s
     CROSS JOIN LATERAL (SELECT se.project_id FROM session se WHERE se.id = n.session_id LIMIT 1) se
     CROSS JOIN LATERAL (SELECT custodian_kept_text(n.session_id, n.span_id) AS body) t
     WHERE n.bytes IS NULL AND o.bytes IS NOT NULL AND t.body IS NOT NULL
    ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words, kept = true;
    DELETE FROM span_search x USING new_rows n
     WHERE n.bytes IS NULL AND NOT x.kept AND x.session_id = n.session_id AND x.span_id = n.span_id;
  END IF;
  -- Each original's span and session are looked up by key (a lateral with LIMIT 1, as
  -- span_original_to_span does, so that a batch never hashes the span table). On UPDATE only the
  -- originals whose bytes came back or changed length are written again: pins, extensions and
  -- scrubs leave the bytes as they were and cost no projection.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words)
    SELECT se.project_id, n.session_id, n.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body)
      FROM new_rows n
     CROSS JOIN LATERAL (SELECT s.occurred_at FROM span s WHERE s.session_id = n.session_id AND s.id = n.span_id LIMIT 1) s
     CROSS JOIN LATERAL (SELECT se.project_id FROM session se WHERE se.id = n.session_id LIMIT 1) se
     CROSS JOIN LATERAL (SELECT custodian_search_text(n.bytes) AS body) t
     WHERE n.bytes IS NOT NULL
    ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words, kept = false;
  ELSE
    INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words)
    SELECT se.project_id, n.session_id, n.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body)
      FROM new_rows n
      JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
     CROSS JOIN LATERAL (SELECT s.occurred_at FROM span s WHERE s.session_id = n.session_id AND s.id = n.span_id LIMIT 1) s
     CROSS JOIN LATERAL (SELECT se.project_id FROM session se WHERE se.id = n.session_id LIMIT 1) se
     CROSS JOIN LATERAL (SELECT custodian_search_text(n.bytes) AS body) t
     WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
    ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words, kept = false;
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_search_from_original_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

-- Originals the sweeper deleted before this migration: what is kept of them, once.
INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words, kept)
SELECT se.project_id, o.session_id, o.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body), true
  FROM span_original o
  JOIN span s ON s.session_id = o.session_id AND s.id = o.span_id
  JOIN session se ON se.id = o.session_id
 CROSS JOIN LATERAL (SELECT custodian_kept_text(o.session_id, o.span_id) AS body) t
 WHERE o.bytes IS NULL AND o.deleted_at IS NOT NULL AND t.body IS NOT NULL
ON CONFLICT (session_id, span_id) DO NOTHING;
