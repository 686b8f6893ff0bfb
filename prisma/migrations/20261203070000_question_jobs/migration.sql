-- CreateTable
CREATE TABLE "question_job" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "status" "ImportStatus" NOT NULL DEFAULT 'RUNNING',
    "candidate_spans" INTEGER NOT NULL DEFAULT 0,
    "sessions_done" INTEGER NOT NULL DEFAULT 0,
    "sessions_total" INTEGER NOT NULL DEFAULT 0,
    "answer" JSONB,
    "error" TEXT,
    "requester" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "question_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "question_job_project_id_created_at_idx" ON "question_job"("project_id", "created_at");

-- AddForeignKey
ALTER TABLE "question_job" ADD CONSTRAINT "question_job_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
