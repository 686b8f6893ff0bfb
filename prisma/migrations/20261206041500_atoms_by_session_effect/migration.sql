-- A session's side-effect atoms by kind of effect: a question over one session (or a few) finds
-- its candidates here, instead of intersecting the project-wide effect index with every atom of
-- the session. Partial like the effect index: about one atom in twenty has an effect.
CREATE INDEX "evidence_atom_session_effect_idx" ON "evidence_atom" ("session_id", "effect") WHERE "effect" IS NOT NULL;
