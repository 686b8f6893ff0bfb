-- custodian_kept_text: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.custodian_kept_text(session uuid, span uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE PARALLEL SAFE
AS $function$
BEGIN
-- What search reads of a span once its original's bytes are gone: what Custodian keeps of it, its
-- tool name and the text of its evidence atoms (paths, commands, ids, URLs...), each text once, one
-- a line, in the order they were found (the first 65,536 characters). Null when nothing is kept.
-- The span row and evidence_atom are read by key: their primary keys lead with (session, span).
-- PL/pgSQL rather than SQL: Citus plans no SQL function whose parameters reach a distributed table.
RETURN (SELECT nullif(left(string_agg(k.text, E'\n' ORDER BY k.first), 65536), '')
  FROM (SELECT u.text, min(u.ordinal) AS first
          FROM (SELECT s.tool_name AS text, -1 AS ordinal FROM span s WHERE s.session_id = $1 AND s.id = $2 AND s.tool_name IS NOT NULL
                UNION ALL
                SELECT a.text, a.ordinal FROM evidence_atom a WHERE a.session_id = $1 AND a.span_id = $2) u
         WHERE u.text <> ''
         GROUP BY u.text) k);
END;
$function$;
