-- A span's side-effect atoms with their effect and whether they are negated, in the index itself:
-- a side-effect question asks of each call of a tool whose effects are not known (thousands in a
-- project) whether a predicate could match one of its atoms, and this answers it without reading
-- the call's atoms from the table (their heap page was most of that statement's time) unless one
-- has an effect asked about. Partial like the other effect indexes: about one atom in twenty has
-- an effect.
CREATE INDEX "evidence_atom_span_effect_idx" ON "evidence_atom" ("session_id", "span_id", "effect") INCLUDE ("negated") WHERE "effect" IS NOT NULL;
