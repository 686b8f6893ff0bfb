-- CreateEnum
CREATE TYPE "ImportStatus" AS ENUM ('RUNNING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "import_job" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "format" TEXT,
    "status" "ImportStatus" NOT NULL DEFAULT 'RUNNING',
    "byte_length" INTEGER NOT NULL,
    "spans_done" INTEGER NOT NULL DEFAULT 0,
    "spans_total" INTEGER NOT NULL DEFAULT 0,
    "outcome" JSONB,
    "error" TEXT,
    "requester" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "import_job_project_id_created_at_idx" ON "import_job"("project_id", "created_at");

-- AddForeignKey
ALTER TABLE "import_job" ADD CONSTRAINT "import_job_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
