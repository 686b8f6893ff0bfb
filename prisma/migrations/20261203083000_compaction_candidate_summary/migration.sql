-- A refusal explains itself: the candidate summary a compaction refused (a fully refused one
-- becomes no span, so its text was lost), and a reclamation's decisions read together.

-- AlterTable
ALTER TABLE "compaction" ADD COLUMN     "summary_manifest" JSONB,
ADD COLUMN     "summary_pointers" JSONB,
ADD COLUMN     "summary_text" TEXT;

-- CreateIndex
CREATE INDEX "gate_decision_session_id_reclamation_id_idx" ON "gate_decision"("session_id", "reclamation_id");

-- Observed compactions backfilled from their audit rows counted no refusals (the audit row lists
-- none for them: nothing was refused), but refused_count is what the gate would have refused; the
-- audit row's verdict counts say so.
UPDATE "compaction" c SET "refused_count" = COALESCE((a."after"->'verdicts'->>'REFUSE')::int, 0)
FROM "audit_log" a
WHERE NOT c."asked" AND a."act" = 'reclamation.commit' AND a."target_type" = 'session'
  AND a."after" ? 'reclamationId' AND a."target_id" = c."session_id"::text
  AND (a."after"->>'reclamationId')::uuid = c."id";

-- The backfill named the requester as the audit log's actor label; new rows carry the requester as
-- the reclamation had it ("api-key:<prefix>", "user:<email>", "importer:<format>"), rebuilt here.
UPDATE "compaction" c SET "requester" = CASE a."actor_type"
    WHEN 'API_KEY' THEN 'api-key:' || a."actor_label"
    WHEN 'USER' THEN 'user:' || a."actor_label"
    ELSE a."actor_label" END
FROM "audit_log" a
WHERE a."act" = 'reclamation.commit' AND a."target_type" = 'session'
  AND a."after" ? 'reclamationId' AND a."target_id" = c."session_id"::text
  AND (a."after"->>'reclamationId')::uuid = c."id" AND c."requester" = a."actor_label";
