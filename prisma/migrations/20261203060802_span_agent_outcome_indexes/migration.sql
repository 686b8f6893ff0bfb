-- The session page's agent and outcome filters read a page of one agent's spans, or of calls with
-- the outcomes asked for, in transcript order without visiting the session's other spans.
-- CreateIndex
CREATE INDEX "span_agent_idx" ON "span"("session_id", "agent_id", "seq", "occurred_at", "id");

-- CreateIndex
CREATE INDEX "span_outcome_idx" ON "span"("session_id", "outcome", "seq", "occurred_at", "id");
