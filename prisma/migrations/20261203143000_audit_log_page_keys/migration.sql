-- The audit log pages by (at, id), newest or oldest first, with an exact total and page numbers in
-- the URL. A deep page was an offset walk of (project_id, at) fetching every skipped row from the
-- heap, then an incremental sort to break ties on id (the sweeper writes many rows at one instant):
-- at 493,000 events the middle page read 246,715 rows and 84,000 buffers, 1.7 s. With id in the
-- index, a page's keys are an index-only walk in the list's own order and only its fifty rows are
-- fetched. Each index replaces the one it extends, so a write maintains as many indexes as before.

-- DropIndex
DROP INDEX "audit_log_project_id_at_idx";

-- DropIndex
DROP INDEX "audit_log_project_id_act_at_idx";

-- DropIndex
DROP INDEX "audit_log_project_id_actor_label_at_idx";

-- CreateIndex
CREATE INDEX "audit_log_project_id_at_id_idx" ON "audit_log"("project_id", "at", "id");

-- CreateIndex
CREATE INDEX "audit_log_project_id_act_at_id_idx" ON "audit_log"("project_id", "act", "at", "id");

-- CreateIndex
CREATE INDEX "audit_log_project_id_actor_label_at_id_idx" ON "audit_log"("project_id", "actor_label", "at", "id");
