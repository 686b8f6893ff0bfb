-- CreateEnum
CREATE TYPE "OriginalState" AS ENUM ('ABSENT', 'DELETED', 'HASH_MISMATCH', 'HELD');

-- DropIndex
DROP INDEX "evidence_atom_effect_normalized_idx";

-- DropIndex
DROP INDEX "summary_link_session_id_replaced_span_id_idx";

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "at_risk_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lost_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "non_summary_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "refusal_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "seq_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "seq_max" INTEGER,
ADD COLUMN     "seq_min" INTEGER,
ADD COLUMN     "span_count" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "span" ADD COLUMN     "original_expires_at" TIMESTAMP(3),
ADD COLUMN     "original_state" "OriginalState" NOT NULL DEFAULT 'ABSENT',
ADD COLUMN     "replacing_summary_id" UUID;

-- AlterTable
ALTER TABLE "span_original" ADD COLUMN     "bytes_state" "OriginalState" NOT NULL DEFAULT 'HELD',
ADD COLUMN     "verified_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "span_grid_idx" ON "span"("session_id", "kind", "class", "replacing_summary_id", "has_pointer", "original_state", "original_expires_at", "occurred_at", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "summary_link_session_id_replaced_span_id_key" ON "summary_link"("session_id", "replaced_span_id");

-- DropIndex (recreated below in byte order as "evidence_atom_kind_value_idx")
DROP INDEX "evidence_atom_kind_normalized_idx";

-- =============================================================================================
-- Read paths at scale (1,000,000 spans): what Prisma's schema language cannot express. Prisma
-- ignores these objects when it diffs (functions, triggers, partial and expression indexes, and
-- the collation of an index it knows), so `migrate dev` keeps them. Each derived column is
-- maintained in the same transaction as the rows it derives from, so nothing is ever stale; the
-- clock-dependent parts of provenance (expiry against now) are still evaluated at read time.
-- =============================================================================================

-- ---------------------------------------------------------------------------------------------
-- Originals are verified when their bytes are written, not when they are read: hashing every
-- original of a 100,000-span session on each page view cannot scale. A mismatch is still LOST;
-- bytes changed behind the database's back are caught by the sweeper's scrub, and the gate and
-- every path that serves bytes hash them again anyway.
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION span_original_verify_bytes() RETURNS trigger AS $$
BEGIN
  IF NEW.bytes IS NULL THEN
    NEW.bytes_state := 'DELETED';
  ELSIF encode(sha256(NEW.bytes), 'hex') = (SELECT s.sha256 FROM span s WHERE s.session_id = NEW.session_id AND s.id = NEW.span_id) THEN
    NEW.bytes_state := 'HELD';
  ELSE
    NEW.bytes_state := 'HASH_MISMATCH';
  END IF;
  NEW.verified_at := now();
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

-- Also on any attempt to set bytes_state: it can only ever be what the bytes say.
CREATE TRIGGER span_original_verify_bytes
  BEFORE INSERT OR UPDATE OF bytes, bytes_state ON span_original
  FOR EACH ROW EXECUTE FUNCTION span_original_verify_bytes();

-- A span's recorded hash is what its original is checked against: should it change, check again.
CREATE FUNCTION span_reverify_original() RETURNS trigger AS $$
BEGIN
  UPDATE span_original SET bytes_state = bytes_state WHERE session_id = NEW.session_id AND span_id = NEW.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER span_reverify_original
  AFTER UPDATE OF sha256 ON span
  FOR EACH ROW WHEN (OLD.sha256 IS DISTINCT FROM NEW.sha256) EXECUTE FUNCTION span_reverify_original();

-- ---------------------------------------------------------------------------------------------
-- The original's facts that provenance rests on, copied onto its span: original_state and
-- original_expires_at (null when pinned or without TTL).
-- ---------------------------------------------------------------------------------------------
CREATE FUNCTION span_original_to_span() RETURNS trigger AS $$
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
    new_expires := CASE WHEN NEW.pinned THEN NULL ELSE NEW.expires_at END;
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

CREATE TRIGGER span_original_to_span
  AFTER INSERT OR DELETE OR UPDATE OF session_id, span_id, bytes, bytes_state, pinned, expires_at ON span_original
  FOR EACH ROW EXECUTE FUNCTION span_original_to_span();

-- The summary that replaced a span, copied onto the span (unique: a span is replaced at most once).
CREATE FUNCTION summary_link_to_span() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE span SET replacing_summary_id = NULL
     WHERE session_id = OLD.session_id AND id = OLD.replaced_span_id AND replacing_summary_id = OLD.summary_span_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM 1 FROM span
      WHERE session_id = NEW.session_id AND id = NEW.replaced_span_id AND replacing_summary_id = NEW.summary_span_id;
    IF NOT FOUND THEN
      UPDATE span SET replacing_summary_id = NEW.summary_span_id WHERE session_id = NEW.session_id AND id = NEW.replaced_span_id;
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER summary_link_to_span
  AFTER INSERT OR DELETE OR UPDATE OF session_id, summary_span_id, replaced_span_id ON summary_link
  FOR EACH ROW EXECUTE FUNCTION summary_link_to_span();

-- ---------------------------------------------------------------------------------------------
-- Per-session counts (session.span_count ... lost_count), from span and refusal_event transitions.
-- Evidence questions look only at summaries and at spans with a seq, hence non_summary_count and
-- the "seq IS NOT NULL" in the span indexes below.
-- ---------------------------------------------------------------------------------------------

-- DEFAULT_POLICY.evidenceHorizonDays (lib/evidence/policy.ts), for projects without a policy row;
-- a database test keeps the two equal.
CREATE FUNCTION custodian_default_horizon_days() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 400 $$;

CREATE FUNCTION custodian_horizon_days(project uuid) RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT COALESCE((SELECT evidence_horizon_days FROM retention_policy WHERE project_id = project), custodian_default_horizon_days())
$$;

-- The sessions list's "at risk": a held (or damaged but present), unpinned original of an
-- evidence-bearing span whose TTL ends before the span's evidence horizon.
CREATE FUNCTION custodian_span_at_risk(state "OriginalState", expires timestamp, cls "EvidentialClass", occurred timestamp, horizon_days integer)
  RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(state IN ('HELD', 'HASH_MISMATCH') AND cls <> 'NARRATIVE' AND expires < occurred + make_interval(days => horizon_days), false)
$$;

CREATE FUNCTION session_counts_span_insert() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + d.non_summary,
    seq_count = se.seq_count + d.seqs,
    seq_min = LEAST(se.seq_min, d.seq_min),
    seq_max = GREATEST(se.seq_max, d.seq_max),
    at_risk_count = se.at_risk_count + d.at_risk,
    lost_count = se.lost_count + d.lost
  FROM (
    SELECT n.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE n.kind <> 'SUMMARY' AND n.seq IS NOT NULL) AS non_summary,
           count(n.seq) AS seqs,
           min(n.seq) AS seq_min,
           max(n.seq) AS seq_max,
           count(*) FILTER (WHERE custodian_span_at_risk(n.original_state, n.original_expires_at, n.class, n.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE n.original_state = 'DELETED') AS lost
      FROM new_rows n JOIN session s ON s.id = n.session_id
     GROUP BY n.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION session_counts_span_delete() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET
    span_count = se.span_count - d.spans,
    non_summary_count = se.non_summary_count - d.non_summary,
    seq_count = se.seq_count - d.seqs,
    seq_min = (SELECT min(seq) FROM span WHERE session_id = se.id),
    seq_max = (SELECT max(seq) FROM span WHERE session_id = se.id),
    at_risk_count = se.at_risk_count - d.at_risk,
    lost_count = se.lost_count - d.lost
  FROM (
    SELECT o.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE o.kind <> 'SUMMARY' AND o.seq IS NOT NULL) AS non_summary,
           count(o.seq) AS seqs,
           count(*) FILTER (WHERE custodian_span_at_risk(o.original_state, o.original_expires_at, o.class, o.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE o.original_state = 'DELETED') AS lost
      FROM old_rows o JOIN session s ON s.id = o.session_id
     GROUP BY o.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Most span updates (transcript state, pointers) change no count: those leave the session row alone.
CREATE FUNCTION session_counts_span_update() RETURNS trigger AS $$
BEGIN
  WITH changes AS (
    SELECT n.session_id, 1 AS sign, n.kind, n.seq, n.class, n.occurred_at, n.original_state, n.original_expires_at FROM new_rows n
    UNION ALL
    SELECT o.session_id, -1, o.kind, o.seq, o.class, o.occurred_at, o.original_state, o.original_expires_at FROM old_rows o
  ),
  moved_seqs AS (
    SELECT DISTINCT session_id FROM (
      (SELECT session_id, seq FROM old_rows EXCEPT ALL SELECT session_id, seq FROM new_rows)
      UNION ALL
      (SELECT session_id, seq FROM new_rows EXCEPT ALL SELECT session_id, seq FROM old_rows)
    ) m
  ),
  d AS (
    SELECT c.session_id,
           sum(c.sign) AS spans,
           sum(c.sign) FILTER (WHERE c.kind <> 'SUMMARY' AND c.seq IS NOT NULL) AS non_summary,
           sum(c.sign) FILTER (WHERE c.seq IS NOT NULL) AS seqs,
           sum(c.sign) FILTER (WHERE custodian_span_at_risk(c.original_state, c.original_expires_at, c.class, c.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           sum(c.sign) FILTER (WHERE c.original_state = 'DELETED') AS lost,
           c.session_id IN (SELECT session_id FROM moved_seqs) AS seqs_moved
      FROM changes c JOIN session s ON s.id = c.session_id
     GROUP BY c.session_id
  )
  UPDATE session se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + COALESCE(d.non_summary, 0),
    seq_count = se.seq_count + COALESCE(d.seqs, 0),
    seq_min = CASE WHEN d.seqs_moved THEN (SELECT min(seq) FROM span WHERE session_id = se.id) ELSE se.seq_min END,
    seq_max = CASE WHEN d.seqs_moved THEN (SELECT max(seq) FROM span WHERE session_id = se.id) ELSE se.seq_max END,
    at_risk_count = se.at_risk_count + COALESCE(d.at_risk, 0),
    lost_count = se.lost_count + COALESCE(d.lost, 0)
  FROM d
  WHERE se.id = d.session_id
    AND (d.spans <> 0 OR COALESCE(d.non_summary, 0) <> 0 OR COALESCE(d.seqs, 0) <> 0 OR COALESCE(d.at_risk, 0) <> 0
         OR COALESCE(d.lost, 0) <> 0 OR d.seqs_moved);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION session_counts_refusal_insert() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count + d.n
    FROM (SELECT session_id, count(*) AS n FROM new_rows GROUP BY session_id) d WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION session_counts_refusal_delete() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count - d.n
    FROM (SELECT session_id, count(*) AS n FROM old_rows GROUP BY session_id) d WHERE se.id = d.session_id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION session_counts_refusal_update() RETURNS trigger AS $$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count + d.n
    FROM (SELECT session_id, sum(sign) AS n FROM (SELECT session_id, 1 AS sign FROM new_rows UNION ALL SELECT session_id, -1 FROM old_rows) c GROUP BY session_id) d
   WHERE se.id = d.session_id AND d.n <> 0;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- A project's horizon moved: its sessions' at-risk counts are recounted (a rare admin act).
CREATE FUNCTION session_counts_recount_at_risk() RETURNS trigger AS $$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
BEGIN
  UPDATE session se SET at_risk_count = (
    SELECT count(*) FROM span s
     WHERE s.session_id = se.id
       AND custodian_span_at_risk(s.original_state, s.original_expires_at, s.class, s.occurred_at, custodian_horizon_days(project)))
   WHERE se.project_id = project;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- ---------------------------------------------------------------------------------------------
-- Backfill what the triggers will maintain from now on, then attach the count triggers.
-- ---------------------------------------------------------------------------------------------
UPDATE span_original SET bytes_state = bytes_state;
UPDATE span s SET replacing_summary_id = l.summary_span_id
  FROM summary_link l WHERE l.session_id = s.session_id AND l.replaced_span_id = s.id;
UPDATE session se SET
  span_count = c.spans, non_summary_count = c.non_summary, seq_count = c.seqs, seq_min = c.seq_min, seq_max = c.seq_max,
  at_risk_count = c.at_risk, lost_count = c.lost
FROM (
  SELECT s.session_id,
         count(*) AS spans,
         count(*) FILTER (WHERE s.kind <> 'SUMMARY' AND s.seq IS NOT NULL) AS non_summary,
         count(s.seq) AS seqs,
         min(s.seq) AS seq_min,
         max(s.seq) AS seq_max,
         count(*) FILTER (WHERE custodian_span_at_risk(s.original_state, s.original_expires_at, s.class, s.occurred_at, custodian_horizon_days(se2.project_id))) AS at_risk,
         count(*) FILTER (WHERE s.original_state = 'DELETED') AS lost
    FROM span s JOIN session se2 ON se2.id = s.session_id
   GROUP BY s.session_id
) c
WHERE se.id = c.session_id;
UPDATE session se SET refusal_count = c.n FROM (SELECT session_id, count(*) AS n FROM refusal_event GROUP BY session_id) c WHERE se.id = c.session_id;

CREATE TRIGGER session_counts_span_insert AFTER INSERT ON span
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_insert();
CREATE TRIGGER session_counts_span_delete AFTER DELETE ON span
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_delete();
CREATE TRIGGER session_counts_span_update AFTER UPDATE ON span
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_update();
CREATE TRIGGER session_counts_refusal_insert AFTER INSERT ON refusal_event
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_insert();
CREATE TRIGGER session_counts_refusal_delete AFTER DELETE ON refusal_event
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_delete();
CREATE TRIGGER session_counts_refusal_update AFTER UPDATE ON refusal_event
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_update();
CREATE TRIGGER session_counts_policy_insert_delete AFTER INSERT OR DELETE ON retention_policy
  FOR EACH ROW EXECUTE FUNCTION session_counts_recount_at_risk();
CREATE TRIGGER session_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON retention_policy
  FOR EACH ROW WHEN (OLD.evidence_horizon_days IS DISTINCT FROM NEW.evidence_horizon_days) EXECUTE FUNCTION session_counts_recount_at_risk();

-- ---------------------------------------------------------------------------------------------
-- Indexes for evidence questions and the grid's neighbours.
-- ---------------------------------------------------------------------------------------------

-- The part of a path below its home directory ("/home/alice/.bashrc" -> ".bashrc"), as
-- homeRelative in lib/evidence/path-prefix.ts; null outside home directories. Used only to find
-- candidates for "~/..." prefixes; the engine itself decides every match.
CREATE FUNCTION custodian_home_relative(path text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN path = '/root' THEN ''
    WHEN path LIKE '/root/%' THEN substr(path, 7)
    WHEN path ~ '^/(home|Users)/[^/]+(/|$)' THEN regexp_replace(path, '^/(home|Users)/[^/]+/?', '')
  END
$$;

-- Prefix ranges compare bytes ("C"), whatever the database's collation. Prisma knows the first
-- (schema.prisma declares it) but not its collation, and leaves it as it is.
CREATE INDEX "evidence_atom_kind_value_idx" ON "evidence_atom" ("kind", "normalized" COLLATE "C");
CREATE INDEX "evidence_atom_effect_value_idx" ON "evidence_atom" ("effect", "normalized" COLLATE "C") WHERE "effect" IS NOT NULL;
CREATE INDEX "evidence_atom_effect_home_value_idx" ON "evidence_atom" ("effect", custodian_home_relative("normalized") COLLATE "C")
  WHERE "effect" IS NOT NULL AND custodian_home_relative("normalized") IS NOT NULL;

-- Replaced spans that cannot be checked whatever the clock says (no pointer, or the original is
-- not held): what blocks a proof of absence, and what checked-span counts subtract.
CREATE INDEX "span_unchecked_idx" ON "span" ("session_id", "class", "occurred_at")
  WHERE "transcript_state" IN ('RECLAIMED', 'RECLAIMED_HONEST') AND "kind" <> 'SUMMARY' AND "seq" IS NOT NULL
    AND (NOT "has_pointer" OR "original_state" <> 'HELD');
-- Replaced spans checkable only until their original expires: the clock-dependent rest.
CREATE INDEX "span_reclaimed_expiry_idx" ON "span" ("original_expires_at")
  WHERE "transcript_state" IN ('RECLAIMED', 'RECLAIMED_HONEST') AND "kind" <> 'SUMMARY' AND "seq" IS NOT NULL
    AND "has_pointer" AND "original_state" = 'HELD';
-- Questions over a time range count the spans in it.
CREATE INDEX "span_transcript_time_idx" ON "span" ("session_id", "occurred_at") WHERE "kind" <> 'SUMMARY' AND "seq" IS NOT NULL;
-- Summaries that rest on a link without a pointer are NONE whatever their other links say.
CREATE INDEX "summary_link_unpointed_idx" ON "summary_link" ("session_id", "summary_span_id") WHERE "pointer_sha256" IS NULL;
-- The sweeper's scrub re-hashes the originals verified longest ago.
CREATE INDEX "span_original_scrub_idx" ON "span_original" ("verified_at") WHERE "bytes_state" <> 'DELETED';
