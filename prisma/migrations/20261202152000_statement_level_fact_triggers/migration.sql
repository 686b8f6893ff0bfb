-- The facts copied onto spans from their originals and from the links of the summaries that
-- replaced them are now copied once per statement rather than once per row. A row trigger that
-- updates one span fires span's statement triggers (session counts, grid counts) once per row:
-- pinning or sweeping a 60,000-span grid cell ran them 60,000 times. Now a bulk act updates its
-- spans in one statement, and those triggers run once. Same facts, same transaction.

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
    -- Written only on a change: ingest passes the values with the span already.
    UPDATE span s SET original_state = f.state, original_expires_at = f.expires
      FROM (SELECT n.session_id, n.span_id, n.bytes_state AS state,
                   CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END AS expires
              FROM new_rows n) f
     WHERE s.session_id = f.session_id AND s.id = f.span_id
       AND (s.original_state IS DISTINCT FROM f.state OR s.original_expires_at IS DISTINCT FROM f.expires);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER span_original_to_span ON span_original;
CREATE TRIGGER span_original_to_span_insert AFTER INSERT ON span_original
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();
CREATE TRIGGER span_original_to_span_delete AFTER DELETE ON span_original
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();
-- Statement triggers with transition tables cannot name columns: every update comes here, and
-- the comparison above leaves spans whose facts did not change (a scrub's verified_at) alone.
CREATE TRIGGER span_original_to_span_update AFTER UPDATE ON span_original
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

CREATE OR REPLACE FUNCTION summary_link_to_span() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE span s SET replacing_summary_id = NULL, replaced_dropped = NULL
      FROM old_rows o
     WHERE s.session_id = o.session_id AND s.id = o.replaced_span_id AND s.replacing_summary_id = o.summary_span_id
       AND NOT EXISTS (SELECT 1 FROM summary_link x
                        WHERE x.session_id = o.session_id AND x.replaced_span_id = o.replaced_span_id AND x.summary_span_id = o.summary_span_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    -- A span is replaced at most once (summary_link's unique key): one link per span here.
    UPDATE span s SET replacing_summary_id = n.summary_span_id, replaced_dropped = n.dropped
      FROM new_rows n
     WHERE s.session_id = n.session_id AND s.id = n.replaced_span_id
       AND (s.replacing_summary_id IS DISTINCT FROM n.summary_span_id OR s.replaced_dropped IS DISTINCT FROM n.dropped);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER summary_link_to_span ON summary_link;
CREATE TRIGGER summary_link_to_span_insert AFTER INSERT ON summary_link
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();
CREATE TRIGGER summary_link_to_span_delete AFTER DELETE ON summary_link
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();
CREATE TRIGGER summary_link_to_span_update AFTER UPDATE ON summary_link
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();
