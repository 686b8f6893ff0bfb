-- CreateTable
CREATE TABLE "retention_policy_version" (
    "project_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "policy" JSONB NOT NULL,
    "canned_questions" JSONB NOT NULL DEFAULT '{}',
    "changes" JSONB NOT NULL DEFAULT '[]',
    "reason" TEXT,
    "actor_type" "ActorType" NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT NOT NULL,
    "rollback_of" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retention_policy_version_pkey" PRIMARY KEY ("project_id","version")
);

-- AddForeignKey
ALTER TABLE "retention_policy_version" ADD CONSTRAINT "retention_policy_version_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
