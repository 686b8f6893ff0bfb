-- Deleted bytes have nothing left to expire: their span's original_expires_at is null, like a
-- pinned original's. Nothing reads it for them (a deleted original is LOST and never at risk), and
-- the planner then sees how few spans' originals are past their TTL yet still held, and looks
-- those up by index instead of reading every span.

CREATE OR REPLACE FUNCTION span_original_to_span() RETURNS trigger AS $$
DECLARE
  target_session uuid;
  target_span uuid;
  new_state "OriginalState";
  new_expires timestamp(3);
BEGIN
  IF TG_OP = 'DELETE' THEN
    target_session := OLD.session_id;
    target_span := OLD.span_id;
    new_state := 'ABSENT';
    new_expires := NULL;
  ELSE
    IF TG_OP = 'UPDATE' AND (OLD.session_id, OLD.span_id) IS DISTINCT FROM (NEW.session_id, NEW.span_id) THEN
      UPDATE span SET original_state = 'ABSENT', original_expires_at = NULL WHERE session_id = OLD.session_id AND id = OLD.span_id;
    END IF;
    target_session := NEW.session_id;
    target_span := NEW.span_id;
    new_state := NEW.bytes_state;
    new_expires := CASE WHEN NEW.pinned OR NEW.bytes_state = 'DELETED' THEN NULL ELSE NEW.expires_at END;
  END IF;
  -- Write only on a change: bulk loads pass the values with the span already, and a no-op UPDATE
  -- would still run span's statement triggers once per original.
  PERFORM 1 FROM span
    WHERE session_id = target_session AND id = target_span
      AND original_state = new_state AND original_expires_at IS NOT DISTINCT FROM new_expires;
  IF NOT FOUND THEN
    UPDATE span SET original_state = new_state, original_expires_at = new_expires
     WHERE session_id = target_session AND id = target_span;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

UPDATE span SET original_expires_at = NULL WHERE original_state = 'DELETED' AND original_expires_at IS NOT NULL;
