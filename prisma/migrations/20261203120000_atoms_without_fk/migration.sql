-- =============================================================================================
-- Imports spend most of their database time on evidence atoms (a 50 MB Claude Code transcript
-- holds about 18,000 spans and 200,000+ atoms). Two costs there bought nothing:
--
-- 1. The foreign key from evidence_atom to span looked up the span once per atom inserted. Atoms
--    are written only with their span, in the same transaction (lib/server/ingest/bulk-insert.ts,
--    the one place atoms become rows), so the check can never fail; what the key did that matters
--    is deleting a span's atoms with it, which a statement trigger on span now does, with one
--    join over the deleted rows (deleting a session reaches it through span's own cascade).
--
-- 2. span_original_to_span ran an UPDATE of span for every batch of new originals even when it
--    changed nothing (ingest writes span with the original's state and expiry already), and the
--    planner hashed the whole span table for it. It now looks each original's span up by key and
--    updates, running span's statement triggers, only when one differs.
-- =============================================================================================

-- DropForeignKey
ALTER TABLE "evidence_atom" DROP CONSTRAINT "evidence_atom_session_id_span_id_fkey";

CREATE FUNCTION evidence_atom_span_delete() RETURNS trigger AS $$
BEGIN
  DELETE FROM evidence_atom a USING old_rows o WHERE a.session_id = o.session_id AND a.span_id = o.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER evidence_atom_span_delete
  AFTER DELETE ON span REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_atom_span_delete();

CREATE OR REPLACE FUNCTION span_original_to_span() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    -- Originals no longer there (deleted, or moved to another span): their spans have none.
    UPDATE span s SET original_state = 'ABSENT', original_expires_at = NULL
      FROM old_rows o
     WHERE s.session_id = o.session_id AND s.id = o.span_id
       AND NOT EXISTS (SELECT 1 FROM span_original x WHERE x.session_id = o.session_id AND x.span_id = o.span_id)
       AND (s.original_state <> 'ABSENT' OR s.original_expires_at IS NOT NULL);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- Written only on a change: ingest passes the values with the span already, so a batch of new
    -- originals usually changes nothing. Each original's span is looked up by its key (LIMIT 1 in a
    -- lateral keeps the planner from hashing the whole span table per batch) and span is updated,
    -- and its statement triggers run, only when some differ.
    PERFORM 1
       FROM new_rows n
      CROSS JOIN LATERAL (
        SELECT 1 FROM span s
         WHERE s.session_id = n.session_id AND s.id = n.span_id
           AND (s.original_state IS DISTINCT FROM n.bytes_state
                OR s.original_expires_at IS DISTINCT FROM CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END)
         LIMIT 1) differs
      LIMIT 1;
    IF FOUND THEN
      UPDATE span s SET original_state = f.state, original_expires_at = f.expires
        FROM (SELECT n.session_id, n.span_id, n.bytes_state AS state,
                     CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END AS expires
                FROM new_rows n) f
       WHERE s.session_id = f.session_id AND s.id = f.span_id
         AND (s.original_state IS DISTINCT FROM f.state OR s.original_expires_at IS DISTINCT FROM f.expires);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
