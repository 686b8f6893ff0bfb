-- =============================================================================================
-- Search over every span (design.md, Search): span_search holds, for each original whose bytes
-- are held, a bounded text projection of those bytes (custodian_search_text: the first 64 KiB,
-- each character standing for a known run of bytes, so a match's text position gives its byte
-- range in the original) with its words as a tsvector. A trigram index finds substrings (ports,
-- ids, paths: `8443` inside `localhost:8443/health`), the tsvector index words, phrases and
-- prefixes, and (project, occurred_at) serves the newest matches first when a term is common.
-- Triggers on span_original keep it in step with every writer: ingest, imports and summaries add
-- rows, the sweeper's expiry (bytes set to NULL) and deleted spans remove them. pg_trgm ships with
-- PostgreSQL and as a PGlite extension (lib/db/embedded.ts loads it).
-- =============================================================================================

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE "span_search" (
    "project_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "body" TEXT NOT NULL,
    "words" tsvector NOT NULL,

    CONSTRAINT "span_search_pkey" PRIMARY KEY ("session_id","span_id")
);

-- From prisma/sql/custodian_search_text.sql
CREATE OR REPLACE FUNCTION public.custodian_search_text(body bytea)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
-- What search reads of an original: its first 65,536 bytes (cut back to a whole UTF-8 character)
-- as text, so that every character stands for a known run of the original bytes.
-- Valid UTF-8 without NUL: the text itself, each character its UTF-8 length in bytes.
-- Otherwise (not UTF-8, or holding NUL, or holding U+F780..U+F7FF, kept to mean raw bytes):
-- one character per byte: NUL as a space, bytes 0x01..0x7F as themselves, 0x80..0xFF as
-- U+F780..U+F7FF. lib/server/search/byte-offsets.ts turns text positions back into byte offsets
-- with the same rule.
DECLARE
  cut integer := octet_length(body);
  head bytea;
  decoded text;
BEGIN
  IF body IS NULL THEN
    RETURN NULL;
  END IF;
  IF cut > 65536 THEN
    cut := 65536;
    WHILE cut > 65533 AND (get_byte(body, cut) & 192) = 128 LOOP
      cut := cut - 1;
    END LOOP;
    head := substring(body FROM 1 FOR cut);
  ELSE
    head := body;
  END IF;
  BEGIN
    decoded := convert_from(head, 'UTF8');
    IF decoded !~ ('[' || chr(63360) || '-' || chr(63487) || ']') THEN
      RETURN decoded;
    END IF;
  EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    NULL;
  END;
  RETURN (SELECT coalesce(string_agg(chr(CASE WHEN b = 0 THEN 32 WHEN b >= 128 THEN 63232 + b ELSE b END), '' ORDER BY i), '')
            FROM (SELECT i, get_byte(head, i) AS b FROM generate_series(0, octet_length(head) - 1) AS i) AS bytes);
END;
$function$;

-- Every original held today, before the indexes (one build each rather than a row at a time).
INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words)
SELECT se.project_id, o.session_id, o.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body)
  FROM span_original o
  JOIN span s ON s.session_id = o.session_id AND s.id = o.span_id
  JOIN session se ON se.id = o.session_id
 CROSS JOIN LATERAL (SELECT custodian_search_text(o.bytes) AS body) t
 WHERE o.bytes IS NOT NULL;

CREATE INDEX "span_search_recent_idx" ON "span_search"("project_id", "occurred_at" DESC, "session_id", "span_id");
CREATE INDEX "span_search_body_trgm_idx" ON "span_search" USING GIN ("body" gin_trgm_ops);
CREATE INDEX "span_search_words_idx" ON "span_search" USING GIN ("words");
-- Statistics now, or the planner would guess at the new table until autovacuum comes round.
ANALYZE "span_search";

-- From prisma/sql/span_search_from_original.sql
CREATE OR REPLACE FUNCTION public.span_search_from_original()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- span_search holds what search reads of every original whose bytes are held: gone with the
  -- bytes (the sweeper, a deleted span), written with them (ingest, imports, summaries).
  IF TG_OP = 'DELETE' THEN
    DELETE FROM span_search x USING old_rows o WHERE x.session_id = o.session_id AND x.span_id = o.span_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM span_search x USING new_rows n
     WHERE n.bytes IS NULL AND x.session_id = n.session_id AND x.span_id = n.span_id;
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
    ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words;
  ELSE
    INSERT INTO span_search (project_id, session_id, span_id, occurred_at, body, words)
    SELECT se.project_id, n.session_id, n.span_id, s.occurred_at, t.body, to_tsvector('simple'::regconfig, t.body)
      FROM new_rows n
      JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
     CROSS JOIN LATERAL (SELECT s.occurred_at FROM span s WHERE s.session_id = n.session_id AND s.id = n.span_id LIMIT 1) s
     CROSS JOIN LATERAL (SELECT se.project_id FROM session se WHERE se.id = n.session_id LIMIT 1) se
     CROSS JOIN LATERAL (SELECT custodian_search_text(n.bytes) AS body) t
     WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
    ON CONFLICT (session_id, span_id) DO UPDATE SET body = excluded.body, words = excluded.words;
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_search_from_original_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();
