-- From prisma/sql/evidence_atom_span_delete.sql
-- evidence_atom_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.evidence_atom_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM evidence_atom a USING old_rows o WHERE a.session_id = o.session_id AND a.span_id = o.id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER evidence_atom_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evidence_atom_span_delete();

-- From prisma/sql/expiry_counts_span_delete.sql
-- expiry_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE span_expiry_count c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, date_trunc('hour', o.original_expires_at) AS expires_hour,
             custodian_slack_days(o.original_expires_at, o.occurred_at) AS slack_days, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD' AND o.original_expires_at IS NOT NULL
       GROUP BY 1, 2, 3, 4
       ORDER BY 1, 2, 3, 4
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.expires_hour = d.expires_hour AND c.slack_days = d.slack_days;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_delete();

-- From prisma/sql/expiry_counts_span_insert.sql
-- expiry_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO span_expiry_count AS c (session_id, class, expires_hour, slack_days, originals, bytes)
  SELECT n.session_id, n.class, date_trunc('hour', n.original_expires_at), custodian_slack_days(n.original_expires_at, n.occurred_at),
         count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD' AND n.original_expires_at IS NOT NULL
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, expires_hour, slack_days)
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_insert();

-- From prisma/sql/expiry_counts_span_update.sql
-- expiry_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.expiry_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO span_expiry_count AS c (session_id, class, expires_hour, slack_days, originals, bytes)
  SELECT x.session_id, x.class, x.expires_hour, x.slack_days, sum(x.sign), sum(x.sign * x.byte_length)
    FROM (SELECT n.session_id, n.class, date_trunc('hour', n.original_expires_at) AS expires_hour,
                 custodian_slack_days(n.original_expires_at, n.occurred_at) AS slack_days, 1 AS sign, n.byte_length::bigint AS byte_length
            FROM new_rows n WHERE n.original_state = 'HELD' AND n.original_expires_at IS NOT NULL
          UNION ALL
          SELECT o.session_id, o.class, date_trunc('hour', o.original_expires_at),
                 custodian_slack_days(o.original_expires_at, o.occurred_at), -1, o.byte_length
            FROM old_rows o WHERE o.original_state = 'HELD' AND o.original_expires_at IS NOT NULL) x
   GROUP BY 1, 2, 3, 4
  HAVING sum(x.sign) <> 0 OR sum(x.sign * x.byte_length) <> 0
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (session_id, class, expires_hour, slack_days)
  DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER expiry_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION expiry_counts_span_update();

-- From prisma/sql/grid_counts_recount.sql
-- grid_counts_recount: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_recount()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  days integer := custodian_horizon_days(project);
  anchor text;
BEGIN
  -- Once per node holding the project's sessions: on one node, here; on a Citus cluster, the
  -- trigger runs on every copy of the reference table, each over its node's session shards.
  FOR anchor IN SELECT custodian_session_shards(TG_TABLE_NAME) LOOP
    DELETE FROM span_grid_count WHERE session_id IN (SELECT id FROM session WHERE project_id = project);
    INSERT INTO span_grid_count (session_id, class, replacing_summary_id, code, n)
    SELECT s.session_id, s.class, custodian_grid_replacing(s.replacing_summary_id),
           custodian_grid_code(s.has_pointer, s.original_state, s.original_expires_at, s.occurred_at, days), count(*)
      FROM span s
     WHERE s.session_id IN (SELECT id FROM session WHERE project_id = project) AND s.kind <> 'SUMMARY'
     GROUP BY 1, 2, 3, 4;
  END LOOP;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER grid_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON public.retention_policy FOR EACH ROW WHEN ((old.evidence_horizon_days IS DISTINCT FROM new.evidence_horizon_days)) EXECUTE FUNCTION grid_counts_recount();

CREATE OR REPLACE TRIGGER grid_counts_policy_insert_delete AFTER INSERT OR DELETE ON public.retention_policy FOR EACH ROW EXECUTE FUNCTION grid_counts_recount();

-- From prisma/sql/grid_counts_span_delete.sql
-- grid_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_delete();

-- From prisma/sql/grid_counts_span_insert.sql
-- grid_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_insert();

-- From prisma/sql/grid_counts_span_update.sql
-- grid_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.grid_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE TRIGGER grid_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION grid_counts_span_update();

-- From prisma/sql/session_counts_compaction_delete.sql
-- session_counts_compaction_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_compaction_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET unasked_compaction_count = se.unasked_compaction_count - d.n
  FROM (SELECT session_id, count(*) AS n FROM old_rows WHERE NOT asked GROUP BY session_id) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER session_counts_compaction_delete AFTER DELETE ON public.compaction REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_delete();

-- From prisma/sql/session_counts_compaction_insert.sql
-- session_counts_compaction_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_compaction_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET unasked_compaction_count = se.unasked_compaction_count + d.n
  FROM (SELECT session_id, count(*) AS n FROM new_rows WHERE NOT asked GROUP BY session_id) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER session_counts_compaction_insert AFTER INSERT ON public.compaction REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_insert();

-- From prisma/sql/session_counts_compaction_update.sql
-- session_counts_compaction_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_compaction_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET unasked_compaction_count = se.unasked_compaction_count + d.n
  FROM (
    SELECT session_id, sum(n) AS n FROM (
      SELECT session_id, count(*) AS n FROM new_rows WHERE NOT asked GROUP BY session_id
      UNION ALL
      SELECT session_id, -count(*) AS n FROM old_rows WHERE NOT asked GROUP BY session_id
    ) x GROUP BY session_id
  ) d
  WHERE se.id = d.session_id AND d.n <> 0;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER session_counts_compaction_update AFTER UPDATE ON public.compaction REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_update();

-- From prisma/sql/session_counts_recount_at_risk.sql
-- session_counts_recount_at_risk: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_recount_at_risk()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  project uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END;
  anchor text;
BEGIN
  -- Once per node holding the project's sessions (as grid_counts_recount).
  FOR anchor IN SELECT custodian_session_shards(TG_TABLE_NAME) LOOP
    UPDATE session se SET at_risk_count = (
      SELECT count(*) FROM span s
       WHERE s.session_id = se.id
         AND custodian_span_at_risk(s.original_state, s.original_expires_at, s.class, s.occurred_at, custodian_horizon_days(project)))
     WHERE se.project_id = project;
  END LOOP;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_policy_horizon AFTER UPDATE OF evidence_horizon_days ON public.retention_policy FOR EACH ROW WHEN ((old.evidence_horizon_days IS DISTINCT FROM new.evidence_horizon_days)) EXECUTE FUNCTION session_counts_recount_at_risk();

CREATE OR REPLACE TRIGGER session_counts_policy_insert_delete AFTER INSERT OR DELETE ON public.retention_policy FOR EACH ROW EXECUTE FUNCTION session_counts_recount_at_risk();

-- From prisma/sql/session_counts_refusal_delete.sql
-- session_counts_refusal_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_refusal_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count - d.n
    FROM (SELECT session_id, count(*) AS n FROM old_rows GROUP BY session_id) d WHERE se.id = d.session_id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_refusal_delete AFTER DELETE ON public.refusal_event REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_delete();

-- From prisma/sql/session_counts_refusal_insert.sql
-- session_counts_refusal_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_refusal_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count + d.n
    FROM (SELECT session_id, count(*) AS n FROM new_rows GROUP BY session_id) d WHERE se.id = d.session_id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_refusal_insert AFTER INSERT ON public.refusal_event REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_insert();

-- From prisma/sql/session_counts_refusal_update.sql
-- session_counts_refusal_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_refusal_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET refusal_count = se.refusal_count + d.n
    FROM (SELECT session_id, sum(sign) AS n FROM (SELECT session_id, 1 AS sign FROM new_rows UNION ALL SELECT session_id, -1 FROM old_rows) c GROUP BY session_id) d
   WHERE se.id = d.session_id AND d.n <> 0;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_refusal_update AFTER UPDATE ON public.refusal_event REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_refusal_update();

-- From prisma/sql/session_counts_span_delete.sql
-- session_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET
    span_count = se.span_count - d.spans,
    non_summary_count = se.non_summary_count - d.non_summary,
    seq_count = se.seq_count - d.seqs,
    seq_min = (SELECT min(seq) FROM span WHERE session_id = se.id),
    seq_max = (SELECT max(seq) FROM span WHERE session_id = se.id),
    at_risk_count = se.at_risk_count - d.at_risk,
    lost_count = se.lost_count - d.lost,
    unchecked_count = se.unchecked_count - d.unchecked
  FROM (
    SELECT o.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE o.kind <> 'SUMMARY' AND o.seq IS NOT NULL) AS non_summary,
           count(o.seq) AS seqs,
           count(*) FILTER (WHERE custodian_span_at_risk(o.original_state, o.original_expires_at, o.class, o.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE o.original_state = 'DELETED') AS lost,
           count(*) FILTER (WHERE custodian_span_unchecked(o.transcript_state, o.kind, o.seq, o.has_pointer, o.original_state)) AS unchecked
      FROM old_rows o JOIN session s ON s.id = o.session_id
     GROUP BY o.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_delete();

-- From prisma/sql/session_counts_span_insert.sql
-- session_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session se SET
    span_count = se.span_count + d.spans,
    non_summary_count = se.non_summary_count + d.non_summary,
    seq_count = se.seq_count + d.seqs,
    seq_min = LEAST(se.seq_min, d.seq_min),
    seq_max = GREATEST(se.seq_max, d.seq_max),
    at_risk_count = se.at_risk_count + d.at_risk,
    lost_count = se.lost_count + d.lost,
    unchecked_count = se.unchecked_count + d.unchecked
  FROM (
    SELECT n.session_id,
           count(*) AS spans,
           count(*) FILTER (WHERE n.kind <> 'SUMMARY' AND n.seq IS NOT NULL) AS non_summary,
           count(n.seq) AS seqs,
           min(n.seq) AS seq_min,
           max(n.seq) AS seq_max,
           count(*) FILTER (WHERE custodian_span_at_risk(n.original_state, n.original_expires_at, n.class, n.occurred_at, custodian_horizon_days(s.project_id))) AS at_risk,
           count(*) FILTER (WHERE n.original_state = 'DELETED') AS lost,
           count(*) FILTER (WHERE custodian_span_unchecked(n.transcript_state, n.kind, n.seq, n.has_pointer, n.original_state)) AS unchecked
      FROM new_rows n JOIN session s ON s.id = n.session_id
     GROUP BY n.session_id
  ) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_insert();

-- From prisma/sql/session_counts_span_update.sql
-- session_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  WITH changes AS (
    SELECT n.session_id, 1 AS sign, n.kind, n.seq, n.class, n.occurred_at, n.original_state, n.original_expires_at, n.transcript_state, n.has_pointer FROM new_rows n
    UNION ALL
    SELECT o.session_id, -1, o.kind, o.seq, o.class, o.occurred_at, o.original_state, o.original_expires_at, o.transcript_state, o.has_pointer FROM old_rows o
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
           sum(c.sign) FILTER (WHERE custodian_span_unchecked(c.transcript_state, c.kind, c.seq, c.has_pointer, c.original_state)) AS unchecked,
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
    lost_count = se.lost_count + COALESCE(d.lost, 0),
    unchecked_count = se.unchecked_count + COALESCE(d.unchecked, 0)
  FROM d
  WHERE se.id = d.session_id
    AND (d.spans <> 0 OR COALESCE(d.non_summary, 0) <> 0 OR COALESCE(d.seqs, 0) <> 0 OR COALESCE(d.at_risk, 0) <> 0
         OR COALESCE(d.lost, 0) <> 0 OR COALESCE(d.unchecked, 0) <> 0 OR d.seqs_moved);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER session_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_span_update();

-- From prisma/sql/session_evidence_version_bump.sql
-- session_evidence_version_bump: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.session_evidence_version_bump()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE session SET evidence_version = evidence_version + 1
   WHERE id IN (SELECT DISTINCT session_id FROM changed_rows);
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER evidence_version_skipped_delete AFTER DELETE ON public.skipped_record REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_skipped_insert AFTER INSERT ON public.skipped_record REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_span_update AFTER UPDATE ON public.span REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_delete AFTER DELETE ON public.summary_link REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_insert AFTER INSERT ON public.summary_link REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

CREATE OR REPLACE TRIGGER evidence_version_link_update AFTER UPDATE ON public.summary_link REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

-- From prisma/sql/span_original_to_span.sql
-- span_original_to_span: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_original_to_span()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  differ boolean;
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
    SELECT EXISTS (SELECT 1
       FROM new_rows n
      CROSS JOIN LATERAL (
        SELECT 1 FROM span s
         WHERE s.session_id = n.session_id AND s.id = n.span_id
           AND (s.original_state IS DISTINCT FROM n.bytes_state
                OR s.original_expires_at IS DISTINCT FROM CASE WHEN n.pinned OR n.bytes_state = 'DELETED' THEN NULL ELSE n.expires_at END)
         LIMIT 1) differs) INTO differ;
    IF differ THEN
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
$function$;

CREATE OR REPLACE TRIGGER span_original_to_span_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

CREATE OR REPLACE TRIGGER span_original_to_span_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

CREATE OR REPLACE TRIGGER span_original_to_span_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_original_to_span();

-- From prisma/sql/span_search_from_original.sql
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
    DELETE FROM span_search x USING old_rows o WHERE x.session_id = o.session_id AND x.span_id = o.span_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    -- Only the key: the text indexes cost more than the rest of a span's ingest, and are written by
    -- the indexer in batches, off the writer's path.
    INSERT INTO span_search_pending (session_id, span_id)
    SELECT n.session_id, n.span_id FROM new_rows n WHERE n.bytes IS NOT NULL
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  -- Bytes just gone (the sweeper): what Custodian keeps of the span (custodian_kept_text: its tool
  -- name and evidence atoms) takes their place, marked kept, so a search still finds the span there
  -- and never reads bytes that are no longer held; a span that keeps nothing leaves. Each original's
  -- span and session are looked up by key (a lateral with LIMIT 1, as span_original_to_span does,
  -- so that a batch never hashes the span table). The pending row goes first: an indexer holding it
  -- is waited for here, and its row in span_search is then overwritten, never written after.
  DELETE FROM span_search_pending p USING new_rows n
   WHERE n.bytes IS NULL AND p.session_id = n.session_id AND p.span_id = n.span_id;
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
  -- Bytes back or of another length: indexed again, by the indexer. The pending row goes first, for
  -- the same reason. Pins, extensions and scrubs leave the bytes as they were and cost nothing here.
  INSERT INTO span_search_pending (session_id, span_id)
  SELECT n.session_id, n.span_id
    FROM new_rows n JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
   WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
  ON CONFLICT DO NOTHING;
  DELETE FROM span_search x USING new_rows n JOIN old_rows o ON o.session_id = n.session_id AND o.span_id = n.span_id
   WHERE n.bytes IS NOT NULL AND (o.bytes IS NULL OR octet_length(o.bytes) <> octet_length(n.bytes))
     AND x.session_id = n.session_id AND x.span_id = n.span_id;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_search_from_original_delete AFTER DELETE ON public.span_original REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_insert AFTER INSERT ON public.span_original REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

CREATE OR REPLACE TRIGGER span_search_from_original_update AFTER UPDATE ON public.span_original REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_search_from_original();

-- From prisma/sql/span_unknown_call_from_atoms.sql
-- span_unknown_call_from_atoms: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.span_unknown_call_from_atoms()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- Atoms are written once, after their span, and never changed: a span is a call of a tool whose
  -- effects are not known from the statement that writes such an atom of it on. Most statements
  -- write none, and then update nothing (an UPDATE would fire span's statement triggers for no row).
  IF EXISTS (SELECT 1 FROM new_rows n WHERE n.effect = 'UNKNOWN_TOOL' AND NOT n.negated) THEN
    UPDATE span s SET unknown_call = true
      FROM (SELECT DISTINCT n.session_id, n.span_id FROM new_rows n WHERE n.effect = 'UNKNOWN_TOOL' AND NOT n.negated) u
     WHERE s.session_id = u.session_id AND s.id = u.span_id AND NOT s.unknown_call;
  END IF;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER span_unknown_call_from_atoms AFTER INSERT ON public.evidence_atom REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION span_unknown_call_from_atoms();

-- From prisma/sql/storage_counts_span_delete.sql
-- storage_counts_span_delete: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE span_storage_count c SET originals = c.originals - d.n, bytes = c.bytes - d.bytes
    FROM (
      SELECT o.session_id, o.class, o.created_at::date AS day, count(*) AS n, sum(o.byte_length) AS bytes
        FROM old_rows o
       WHERE o.original_state = 'HELD'
       GROUP BY 1, 2, 3
       ORDER BY 1, 2, 3
    ) d
   WHERE c.session_id = d.session_id AND c.class = d.class AND c.day = d.day;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_delete AFTER DELETE ON public.span REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_delete();

-- From prisma/sql/storage_counts_span_insert.sql
-- storage_counts_span_insert: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO span_storage_count AS c (session_id, class, day, originals, bytes)
  SELECT n.session_id, n.class, n.created_at::date, count(*), sum(n.byte_length)
    FROM new_rows n
   WHERE n.original_state = 'HELD'
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_insert AFTER INSERT ON public.span REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_insert();

-- From prisma/sql/storage_counts_span_update.sql
-- storage_counts_span_update: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.storage_counts_span_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO span_storage_count AS c (session_id, class, day, originals, bytes)
  SELECT x.session_id, x.class, x.day, sum(x.sign), sum(x.sign * x.byte_length)
    FROM (SELECT n.session_id, n.class, n.created_at::date AS day, 1 AS sign, n.byte_length::bigint AS byte_length
            FROM new_rows n WHERE n.original_state = 'HELD'
          UNION ALL
          SELECT o.session_id, o.class, o.created_at::date, -1, o.byte_length
            FROM old_rows o WHERE o.original_state = 'HELD') x
   GROUP BY 1, 2, 3
  HAVING sum(x.sign) <> 0 OR sum(x.sign * x.byte_length) <> 0
   ORDER BY 1, 2, 3
  ON CONFLICT (session_id, class, day) DO UPDATE SET originals = c.originals + excluded.originals, bytes = c.bytes + excluded.bytes;
  RETURN NULL;
END;
$function$;

CREATE OR REPLACE TRIGGER storage_counts_span_update AFTER UPDATE ON public.span REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storage_counts_span_update();

-- From prisma/sql/summary_link_to_span.sql
-- summary_link_to_span: its current definition, with the triggers that fire it (how to change it: prisma/sql/README.md).

CREATE OR REPLACE FUNCTION public.summary_link_to_span()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE OR REPLACE TRIGGER summary_link_to_span_delete AFTER DELETE ON public.summary_link REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();

CREATE OR REPLACE TRIGGER summary_link_to_span_insert AFTER INSERT ON public.summary_link REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();

CREATE OR REPLACE TRIGGER summary_link_to_span_update AFTER UPDATE ON public.summary_link REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION summary_link_to_span();
