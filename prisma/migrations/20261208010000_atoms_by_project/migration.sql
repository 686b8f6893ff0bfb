-- Atoms carry their session's project, and the value indexes a question's candidates come from lead
-- with it. Led by kind or effect, they held every project's atoms: a whole-project question read
-- the matching atoms of every other project and dropped them at the join to session (1M spans of a
-- neighbour writing under /etc/ took one project's system-config question from 0.25 s to 1.5 s).
-- Written at ingest with the atom, from the session the span belongs to (a session never changes
-- project). No foreign key: like span_id, checking it would cost a lookup per atom, and atoms go
-- with their spans, which go with their session.
--
-- One DO block: on a Citus cluster, a script of several statements that changes indexes of a
-- distributed table fails ("cannot insert multiple commands into a prepared statement": Citus sends
-- the index statements' text to the workers as it came, the whole script), and inside a block each
-- statement is a text of its own.
DO $$
BEGIN
  ALTER TABLE "evidence_atom" ADD COLUMN "project_id" UUID;

  -- The value indexes are built again below, with the column filled: dropped first, so that
  -- filling it does not also rewrite them.
  DROP INDEX "evidence_atom_kind_value_idx";
  DROP INDEX "evidence_atom_effect_value_idx";
  DROP INDEX "evidence_atom_effect_home_value_idx";

  UPDATE "evidence_atom" a SET "project_id" = s."project_id" FROM "session" s WHERE s."id" = a."session_id";
  ALTER TABLE "evidence_atom" ALTER COLUMN "project_id" SET NOT NULL;

  CREATE INDEX "evidence_atom_kind_value_idx" ON "evidence_atom" ("project_id", "kind", (left("normalized", 500)) COLLATE "C");
  CREATE INDEX "evidence_atom_effect_value_idx" ON "evidence_atom" ("project_id", "effect", (left("normalized", 500)) COLLATE "C")
    WHERE "effect" IS NOT NULL;
  CREATE INDEX "evidence_atom_effect_home_value_idx" ON "evidence_atom" ("project_id", "effect", (left(custodian_home_relative("normalized"), 500)) COLLATE "C")
    WHERE "effect" IS NOT NULL AND custodian_home_relative("normalized") IS NOT NULL;
END
$$;
