-- How far `custodian watch` has imported each local transcript file (see schema.prisma TranscriptCursor).
CREATE TABLE "transcript_cursor" (
    "project_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "runtime" TEXT NOT NULL,
    "identity" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mtime" TIMESTAMP(3) NOT NULL,
    "state" JSONB NOT NULL,
    "bytes" BIGINT NOT NULL,
    "error" TEXT,
    "delete_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "transcript_cursor_pkey" PRIMARY KEY ("project_id","path")
);

CREATE INDEX "transcript_cursor_project_id_delete_at_idx" ON "transcript_cursor"("project_id", "delete_at");

ALTER TABLE "transcript_cursor" ADD CONSTRAINT "transcript_cursor_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
