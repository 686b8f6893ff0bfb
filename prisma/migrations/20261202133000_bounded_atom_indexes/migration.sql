-- An atom's value can be longer than a btree entry may be (about 2.7 kB): a tool argument holding
-- a whole file would fail its insert. The value indexes cover the first 500 characters (at most
-- 2,000 bytes), which is all a prefix range needs; questions still judge the whole value.
-- They are expression indexes now, which Prisma does not track (schema.prisma no longer declares
-- the first).
DROP INDEX "evidence_atom_kind_value_idx";
DROP INDEX "evidence_atom_effect_value_idx";
DROP INDEX "evidence_atom_effect_home_value_idx";

CREATE INDEX "evidence_atom_kind_value_idx" ON "evidence_atom" ("kind", (left("normalized", 500)) COLLATE "C");
CREATE INDEX "evidence_atom_effect_value_idx" ON "evidence_atom" ("effect", (left("normalized", 500)) COLLATE "C")
  WHERE "effect" IS NOT NULL;
CREATE INDEX "evidence_atom_effect_home_value_idx" ON "evidence_atom" ("effect", (left(custodian_home_relative("normalized"), 500)) COLLATE "C")
  WHERE "effect" IS NOT NULL AND custodian_home_relative("normalized") IS NOT NULL;

-- A span's commands, for predicates on commands ("the span ran sudo or a package manager").
CREATE INDEX "evidence_atom_command_idx" ON "evidence_atom" ("session_id", "span_id") WHERE "kind" = 'COMMAND';
