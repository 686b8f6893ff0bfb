-- Projects and membership, compactions as events of their own, saved questions, audit log filters.

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "unasked_compaction_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "project_member" (
    "project_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_member_pkey" PRIMARY KEY ("project_id","user_id")
);

-- CreateTable
CREATE TABLE "compaction" (
    "session_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "summary_span_id" UUID,
    "asked" BOOLEAN NOT NULL,
    "replaced_count" INTEGER NOT NULL,
    "refused_count" INTEGER NOT NULL,
    "requester" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "compaction_pkey" PRIMARY KEY ("session_id","id")
);

-- CreateTable
CREATE TABLE "saved_question" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "predicate" JSONB NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_question_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "project_member_user_id_idx" ON "project_member"("user_id");

-- CreateIndex
CREATE INDEX "compaction_project_id_occurred_at_idx" ON "compaction"("project_id", "occurred_at");

-- CreateIndex
CREATE INDEX "compaction_project_id_asked_occurred_at_idx" ON "compaction"("project_id", "asked", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "saved_question_project_id_title_key" ON "saved_question"("project_id", "title");

-- CreateIndex
CREATE INDEX "audit_log_project_id_act_at_idx" ON "audit_log"("project_id", "act", "at");

-- CreateIndex
CREATE INDEX "audit_log_project_id_actor_label_at_idx" ON "audit_log"("project_id", "actor_label", "at");

-- AddForeignKey
ALTER TABLE "project_member" ADD CONSTRAINT "project_member_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_member" ADD CONSTRAINT "project_member_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compaction" ADD CONSTRAINT "compaction_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compaction" ADD CONSTRAINT "compaction_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_question" ADD CONSTRAINT "saved_question_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Membership: until now every signed-in person saw every project with their one role. Keep what
-- each could do: a member of every existing project with that role.
INSERT INTO "project_member" ("project_id", "user_id", "role")
SELECT p."id", u."id", u."role" FROM "project" p CROSS JOIN "app_user" u
ON CONFLICT DO NOTHING;

-- Compactions committed before this migration, read back from their audit rows.
INSERT INTO "compaction" ("session_id", "id", "project_id", "summary_span_id", "asked", "replaced_count", "refused_count", "requester", "occurred_at")
SELECT s."id", (a."after"->>'reclamationId')::uuid, s."project_id",
       NULLIF(a."after"->>'summarySpanId', '')::uuid,
       NOT COALESCE((a."after"->>'observed')::boolean, false),
       COALESCE(jsonb_array_length(a."after"->'replacedSpanIds'), 0),
       COALESCE(jsonb_array_length(a."after"->'refusedSpanIds'), 0),
       a."actor_label", a."at"
FROM "audit_log" a JOIN "session" s ON s."id"::text = a."target_id"
WHERE a."act" = 'reclamation.commit' AND a."target_type" = 'session' AND a."after" ? 'reclamationId'
ON CONFLICT DO NOTHING;

-- session.unasked_compaction_count, kept by statement-level triggers like the other counters.
CREATE FUNCTION session_counts_compaction_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE session se SET unasked_compaction_count = se.unasked_compaction_count + d.n
  FROM (SELECT session_id, count(*) AS n FROM new_rows WHERE NOT asked GROUP BY session_id) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END $$;

CREATE FUNCTION session_counts_compaction_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE session se SET unasked_compaction_count = se.unasked_compaction_count - d.n
  FROM (SELECT session_id, count(*) AS n FROM old_rows WHERE NOT asked GROUP BY session_id) d
  WHERE se.id = d.session_id;
  RETURN NULL;
END $$;

CREATE FUNCTION session_counts_compaction_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;

CREATE TRIGGER session_counts_compaction_insert AFTER INSERT ON "compaction"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_insert();
CREATE TRIGGER session_counts_compaction_delete AFTER DELETE ON "compaction"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_delete();
CREATE TRIGGER session_counts_compaction_update AFTER UPDATE ON "compaction"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION session_counts_compaction_update();

UPDATE session se SET unasked_compaction_count = c.n
FROM (SELECT session_id, count(*) AS n FROM "compaction" WHERE NOT asked GROUP BY session_id) c
WHERE se.id = c.session_id;
