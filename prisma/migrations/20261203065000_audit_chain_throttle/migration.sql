-- AlterTable
ALTER TABLE "audit_log" ADD COLUMN     "chain_seq" BIGINT,
ADD COLUMN     "hash" TEXT,
ADD COLUMN     "prev_hash" TEXT;

-- CreateTable
CREATE TABLE "audit_chain_head" (
    "id" INTEGER NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_chain_head_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "throttle" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "hits" INTEGER NOT NULL,

    CONSTRAINT "throttle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "throttle_window_start_idx" ON "throttle"("window_start");

-- CreateIndex
CREATE UNIQUE INDEX "audit_log_chain_seq_key" ON "audit_log"("chain_seq");


-- The audit log is hash-chained: every row stores its place in the chain (chain_seq), the hash of
-- the row before it (prev_hash) and sha256 over its canonical content and that previous hash
-- (hash). A trigger computes them under a lock on the chain's head, so concurrent writers (one
-- statement or many, COPY included) always extend one chain. `npm run custodian -- audit verify`
-- recomputes the chain and names the first broken link.

-- The canonical content of a row: a JSON array of every column in a fixed order (jsonb's text form
-- is deterministic), hashed with the previous row's hash inside it.
CREATE FUNCTION audit_log_row_hash(r audit_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    r.chain_seq, r.prev_hash, r.id, r.project_id, r.actor_type, r.actor_id, r.actor_label, r.act,
    r.target_type, r.target_id, r."before", r."after", r.reason, r."at")::text, 'UTF8')), 'hex')
$$;

INSERT INTO "audit_chain_head" ("id", "seq", "hash") VALUES (1, 0, '');

-- Rows written before the chain existed are chained in the order they were written.
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_append_only";
DO $$
DECLARE
  r audit_log;
  previous text := '';
  n bigint := 0;
BEGIN
  FOR r IN SELECT * FROM audit_log ORDER BY "at", id LOOP
    n := n + 1;
    r.chain_seq := n;
    r.prev_hash := previous;
    r.hash := audit_log_row_hash(r);
    UPDATE audit_log SET chain_seq = r.chain_seq, prev_hash = r.prev_hash, hash = r.hash WHERE id = r.id;
    previous := r.hash;
  END LOOP;
  UPDATE audit_chain_head SET seq = n, hash = previous WHERE id = 1;
END $$;
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_append_only";

-- Runs as the owner (SECURITY DEFINER): the application's role needs no right on the head, and
-- cannot move it. The head's row lock is held to the end of the writing transaction: a second
-- writer waits, then reads the head the first one committed (or, if it rolled back, the old one).
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public AS $$
DECLARE
  head audit_chain_head%ROWTYPE;
BEGIN
  SELECT * INTO STRICT head FROM audit_chain_head WHERE id = 1 FOR UPDATE;
  NEW.chain_seq := head.seq + 1;
  NEW.prev_hash := head.hash;
  NEW.hash := audit_log_row_hash(NEW);
  UPDATE audit_chain_head SET seq = NEW.chain_seq, hash = NEW.hash WHERE id = 1;
  RETURN NEW;
END;
$$;

CREATE TRIGGER audit_log_chain
  BEFORE INSERT ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_chain();

-- TRUNCATE fires no row trigger: refuse it too (the application's role has no right to it at all).
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();

-- The chain's head is moved by the chain's trigger only.
CREATE TRIGGER audit_chain_head_fixed
  BEFORE DELETE OR TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
