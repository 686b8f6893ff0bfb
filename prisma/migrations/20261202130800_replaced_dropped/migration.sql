-- What an honest summary admitted dropping of each span it replaced, copied onto the span like the
-- replacing summary itself, so that the spans that block a proof of absence are listed, with what
-- they dropped, from one index.

-- AlterTable
ALTER TABLE "span" ADD COLUMN     "replaced_dropped" JSONB;

CREATE OR REPLACE FUNCTION summary_link_to_span() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE span SET replacing_summary_id = NULL, replaced_dropped = NULL
     WHERE session_id = OLD.session_id AND id = OLD.replaced_span_id AND replacing_summary_id = OLD.summary_span_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM 1 FROM span
      WHERE session_id = NEW.session_id AND id = NEW.replaced_span_id AND replacing_summary_id = NEW.summary_span_id
        AND replaced_dropped IS NOT DISTINCT FROM NEW.dropped;
    IF NOT FOUND THEN
      UPDATE span SET replacing_summary_id = NEW.summary_span_id, replaced_dropped = NEW.dropped
       WHERE session_id = NEW.session_id AND id = NEW.replaced_span_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER summary_link_to_span ON summary_link;
CREATE TRIGGER summary_link_to_span
  AFTER INSERT OR DELETE OR UPDATE OF session_id, summary_span_id, replaced_span_id, dropped ON summary_link
  FOR EACH ROW EXECUTE FUNCTION summary_link_to_span();

UPDATE span s SET replaced_dropped = l.dropped
  FROM summary_link l WHERE l.session_id = s.session_id AND l.replaced_span_id = s.id;

DROP INDEX "span_unchecked_idx";
CREATE INDEX "span_unchecked_idx" ON "span" ("session_id", "class", "occurred_at")
  INCLUDE ("id", "seq", "transcript_state", "has_pointer", "original_state", "original_expires_at", "replaced_dropped")
  WHERE "transcript_state" IN ('RECLAIMED', 'RECLAIMED_HONEST') AND "kind" <> 'SUMMARY' AND "seq" IS NOT NULL
    AND (NOT "has_pointer" OR "original_state" <> 'HELD');
