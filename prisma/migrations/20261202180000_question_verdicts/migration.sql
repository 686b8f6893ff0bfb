-- AlterTable
ALTER TABLE "session" ADD COLUMN     "evidence_version" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "question_verdict" (
    "session_id" UUID NOT NULL,
    "question_key" CHAR(64) NOT NULL,
    "evidence_version" BIGINT NOT NULL,
    "valid_from" TIMESTAMP(3) NOT NULL,
    "valid_until" TIMESTAMP(3),
    "answer" TEXT NOT NULL,

    CONSTRAINT "question_verdict_pkey" PRIMARY KEY ("session_id","question_key")
);

-- AddForeignKey
ALTER TABLE "question_verdict" ADD CONSTRAINT "question_verdict_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Evidence questions over a whole project keep each session's verdict (question_verdict) and judge
-- again only the sessions whose evidence_version moved since. Everything a verdict reads is raised
-- here, in the writing transaction: the session's spans (their facts, including those copied from
-- originals and summary links by the fact triggers), its summary links, its cwd. Atoms are only
-- ever written with their span, in the same transaction. The policy and the question are part of
-- the verdict's key; the clock's part is the verdict's valid_until.
CREATE FUNCTION session_evidence_version_bump() RETURNS trigger AS $$
BEGIN
  UPDATE session SET evidence_version = evidence_version + 1
   WHERE id IN (SELECT DISTINCT session_id FROM changed_rows);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER evidence_version_span_insert AFTER INSERT ON span
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_span_delete AFTER DELETE ON span
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_span_update AFTER UPDATE ON span
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_link_insert AFTER INSERT ON summary_link
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_link_delete AFTER DELETE ON summary_link
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_link_update AFTER UPDATE ON summary_link
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

-- Questions outside the cwd read it.
CREATE FUNCTION session_evidence_version_cwd() RETURNS trigger AS $$
BEGIN
  NEW.evidence_version := OLD.evidence_version + 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER evidence_version_session_cwd BEFORE UPDATE OF cwd ON session
  FOR EACH ROW WHEN (OLD.cwd IS DISTINCT FROM NEW.cwd) EXECUTE FUNCTION session_evidence_version_cwd();

-- A verdict is JSON of a few kilobytes, written and read whole: kept out of line uncompressed,
-- which halves the time to write a project's verdicts and spares decompressing them on every read.
ALTER TABLE "question_verdict" ALTER COLUMN "answer" SET STORAGE EXTERNAL;
