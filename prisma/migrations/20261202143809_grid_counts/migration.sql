-- CreateTable
CREATE TABLE "span_grid_count" (
    "session_id" UUID NOT NULL,
    "class" "EvidentialClass" NOT NULL,
    "replacing_summary_id" UUID NOT NULL,
    "code" SMALLINT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "span_grid_count_pkey" PRIMARY KEY ("session_id","class","replacing_summary_id","code")
);

-- AddForeignKey
ALTER TABLE "span_grid_count" ADD CONSTRAINT "span_grid_count_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- =============================================================================================
-- The session grid from counts kept by triggers instead of a scan of every span: a 100,000-span
-- session's grid is a few dozen counter rows plus the spans whose TTL has passed without their
-- original being swept yet (found by span_held_expiry_idx). The status stored here is the part
-- that does not depend on the clock; the clock can only move a held original with a TTL to LOST.
-- The definition stays provenanceStatus in lib/evidence/provenance.ts; read-paths.db.test.ts holds
-- the grid to it at every clock.
-- =============================================================================================

-- 0 NONE, 1 LOST, 2 EXPIRING until the TTL passes, 3 DURABLE until the TTL passes, 4 DURABLE
-- (pinned or without TTL), in provenanceStatus's order of tests.
CREATE FUNCTION custodian_grid_code(has_pointer boolean, state "OriginalState", expires timestamp, occurred timestamp, horizon_days integer)
  RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN NOT has_pointer THEN 0
               WHEN state <> 'HELD' THEN 1
               WHEN expires IS NULL THEN 4
               WHEN expires < occurred + make_interval(days => horizon_days) THEN 2
               ELSE 3 END)::smallint
$$;

-- Spans no summary replaced are counted under the nil uuid (a key column cannot be null).
CREATE FUNCTION custodian_grid_replacing(replacing uuid) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(replacing, '00000000-0000-0000-0000-000000000000'::uuid)
$$;

-- Counter rows are locked in key order, so concurrent writers of one session never deadlock on them.
CREATE FUNCTION grid_counts_span_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_grid_count AS g (session_id, class, replacing_summary_id, code, n)
  SELECT n.session_id, n.class, custodian_grid_replacing(n.replacing_summary_id),
         custodian_grid_code(n.has_pointer, n.original_state, n.original_expires_at, n.occurred_at, h.days), count(*)
    FROM new_rows n
    JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM session s
           WHERE s.id IN (SELECT DISTINCT session_id FROM new_rows)) h ON h.id = n.session_id
   WHERE n.kind <> 'SUMMARY'
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, replacing_summary_id, code) DO UPDATE SET n = g.n + excluded.n;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Only existing counters go down (a span's row was counted when it was written); when the session
-- itself is being deleted its counters are already gone and nothing is left to update.
CREATE FUNCTION grid_counts_span_delete() RETURNS trigger AS $$
BEGIN
  UPDATE span_grid_count g SET n = g.n - d.n
    FROM (
      SELECT o.session_id, o.class, custodian_grid_replacing(o.replacing_summary_id) AS replacing,
             custodian_grid_code(o.has_pointer, o.original_state, o.original_expires_at, o.occurred_at, h.days) AS code, count(*) AS n
        FROM old_rows o
        JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM session s
               WHERE s.id IN (SELECT DISTINCT session_id FROM old_rows)) h ON h.id = o.session_id
       WHERE o.kind <> 'SUMMARY'
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4
    ) d
   WHERE g.session_id = d.session_id AND g.class = d.class AND g.replacing_summary_id = d.replacing AND g.code = d.code;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION grid_counts_span_update() RETURNS trigger AS $$
BEGIN
  INSERT INTO span_grid_count AS g (session_id, class, replacing_summary_id, code, n)
  SELECT c.session_id, c.class, custodian_grid_replacing(c.replacing_summary_id),
         custodian_grid_code(c.has_pointer, c.original_state, c.original_expires_at, c.occurred_at, h.days), sum(c.sign)
    FROM (SELECT n.session_id, 1 AS sign, n.kind, n.class, n.replacing_summary_id, n.has_pointer, n.original_state, n.original_expires_at, n.occurred_at FROM new_rows n
          UNION ALL
          SELECT o.session_id, -1, o.kind, o.class, o.replacing_summary_id, o.has_pointer, o.original_state, o.original_expires_at, o.occurred_at FROM old_rows o) c
    JOIN (SELECT s.id, custodian_horizon_days(s.project_id) AS days FROM session s
           WHERE s.id IN (SELECT session_id FROM new_rows UNION SELECT session_id FROM old_rows)) h ON h.id = c.session_id
   WHERE c.kind <> 'SUMMARY'
   GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, replacing_summary_id, code) DO UPDATE SET n = g.n + excluded.n;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- A project's horizon moved: its sessions' counters are counted again (a rare admin act).
CREATE FUNCTION grid_counts_recount() RETURNS trigger AS $$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  days integer := custodian_horizon_days(project);
BEGIN
  DELETE FROM span_grid_count WHERE session_id IN (SELECT id FROM session WHERE project_id = project);
  INSERT INTO span_grid_count (session_id, class, replacing_summary_id, code, n)
  SELECT s.session_id, s.class, custodian_grid_replacing(s.replacing_summary_id),
         custodian_grid_code(s.has_pointer, s.original_state, s.original_expires_at, s.occurred_at, days), count(*)
    FROM span s
   WHERE s.session_id IN (SELECT id FROM session WHERE project_id = project) AND s.kind <> 'SUMMARY'
   GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

INSERT INTO span_grid_count (session_id, class, replacing_summary_id, code, n)
SELECT s.session_id, s.class, custodian_grid_replacing(s.replacing_summary_id),
       custodian_grid_code(s.has_pointer, s.original_state, s.original_expires_at, s.occurred_at, custodian_horizon_days(se.project_id)), count(*)
  FROM span s JOIN session se ON se.id = s.session_id
 WHERE s.kind <> 'SUMMARY'
 GROUP BY 1, 2, 3, 4;

CREATE TRIGGER grid_counts_span_insert AFTER INSERT ON span
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_insert();
CREATE TRIGGER grid_counts_span_delete AFTER DELETE ON span
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_delete();
CREATE TRIGGER grid_counts_span_update AFTER UPDATE ON span
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_update();
CREATE TRIGGER grid_counts_policy_insert_delete AFTER INSERT OR DELETE ON retention_policy
  FOR EACH ROW EXECUTE FUNCTION grid_counts_recount();
CREATE TRIGGER grid_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON retention_policy
  FOR EACH ROW WHEN (OLD.evidence_horizon_days IS DISTINCT FROM NEW.evidence_horizon_days) EXECUTE FUNCTION grid_counts_recount();

-- The clock's part: spans (not summaries) whose held original has a TTL, by session and expiry, so
-- the grid finds those past their TTL and not swept yet without reading the others.
CREATE INDEX "span_held_expiry_idx" ON "span" ("session_id", "original_expires_at")
  INCLUDE ("class", "replacing_summary_id", "occurred_at")
  WHERE "kind" <> 'SUMMARY' AND "has_pointer" AND "original_state" = 'HELD' AND "original_expires_at" IS NOT NULL;
