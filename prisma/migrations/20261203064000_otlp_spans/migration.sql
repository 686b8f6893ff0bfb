-- CreateTable
CREATE TABLE "otlp_span" (
    "project_id" UUID NOT NULL,
    "trace_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "parent_span_id" TEXT,
    "conversation_id" TEXT,
    "span" JSONB NOT NULL,
    "resource" JSONB NOT NULL,
    "ordinal" BIGSERIAL NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_span_pkey" PRIMARY KEY ("project_id","trace_id","span_id")
);

-- CreateIndex
CREATE INDEX "otlp_span_project_id_conversation_id_idx" ON "otlp_span"("project_id", "conversation_id");

-- CreateIndex
CREATE INDEX "otlp_span_project_id_trace_id_parent_span_id_idx" ON "otlp_span"("project_id", "trace_id", "parent_span_id");

-- AddForeignKey
ALTER TABLE "otlp_span" ADD CONSTRAINT "otlp_span_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
