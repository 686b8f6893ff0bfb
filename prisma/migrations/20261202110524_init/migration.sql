-- CreateEnum
CREATE TYPE "Role" AS ENUM ('VIEWER', 'OPERATOR', 'ADMIN');

-- CreateEnum
CREATE TYPE "SpanKind" AS ENUM ('MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'SUMMARY');

-- CreateEnum
CREATE TYPE "EvidentialClass" AS ENUM ('NARRATIVE', 'STRUCTURED', 'SIDE_EFFECTING');

-- CreateEnum
CREATE TYPE "TranscriptState" AS ENUM ('VERBATIM', 'RECLAIMED', 'RECLAIMED_HONEST', 'PRESERVED');

-- CreateEnum
CREATE TYPE "ProvenanceStatus" AS ENUM ('DURABLE', 'EXPIRING', 'LOST', 'NONE');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('RECLAIM', 'RECLAIM_HONEST', 'REFUSE');

-- CreateEnum
CREATE TYPE "AtomKind" AS ENUM ('PATH', 'COMMAND', 'TOOL_CALL', 'TOOL_ARG', 'NUMBER', 'IDENTIFIER', 'TIMESTAMP', 'URL', 'QUOTED', 'NEGATION');

-- CreateEnum
CREATE TYPE "SideEffectKind" AS ENUM ('FILE_WRITE', 'FILE_DELETE', 'FILE_MOVE', 'PERMISSION_CHANGE', 'PACKAGE_INSTALL', 'PACKAGE_REMOVE', 'SERVICE_CONTROL', 'NETWORK_MUTATION', 'DB_WRITE', 'VCS_COMMIT', 'VCS_PUSH', 'PRIVILEGE_ESCALATION', 'PROCESS_SPAWN', 'SHELL_MUTATION', 'UNKNOWN_TOOL');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('USER', 'API_KEY', 'SYSTEM');

-- CreateTable
CREATE TABLE "project" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'OPERATOR',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_user" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "Role" NOT NULL DEFAULT 'VIEWER',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "runtime" TEXT NOT NULL,
    "title" TEXT,
    "cwd" TEXT,
    "started_at" TIMESTAMP(3),
    "last_activity_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "span" (
    "session_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "seq" INTEGER,
    "kind" "SpanKind" NOT NULL,
    "role" TEXT,
    "tool_name" TEXT,
    "tool_input" JSONB,
    "exit_code" INTEGER,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "class" "EvidentialClass" NOT NULL,
    "class_reasons" JSONB NOT NULL,
    "class_override" JSONB,
    "transcript_state" "TranscriptState" NOT NULL DEFAULT 'VERBATIM',
    "has_pointer" BOOLEAN NOT NULL DEFAULT true,
    "byte_length" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "span_pkey" PRIMARY KEY ("session_id","id")
);

-- CreateTable
CREATE TABLE "span_original" (
    "session_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "bytes" BYTEA,
    "sha256" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMP(3),
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMP(3),
    "delete_reason" TEXT,

    CONSTRAINT "span_original_pkey" PRIMARY KEY ("session_id","span_id")
);

-- CreateTable
CREATE TABLE "evidence_atom" (
    "session_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "kind" "AtomKind" NOT NULL,
    "text" TEXT NOT NULL,
    "normalized" TEXT NOT NULL,
    "byte_start" INTEGER NOT NULL,
    "byte_end" INTEGER NOT NULL,
    "effect" "SideEffectKind",
    "negated" BOOLEAN NOT NULL DEFAULT false,
    "arg_name" TEXT,

    CONSTRAINT "evidence_atom_pkey" PRIMARY KEY ("session_id","span_id","ordinal")
);

-- CreateTable
CREATE TABLE "summary_link" (
    "session_id" UUID NOT NULL,
    "summary_span_id" UUID NOT NULL,
    "replaced_span_id" UUID NOT NULL,
    "pointer_start" INTEGER,
    "pointer_end" INTEGER,
    "pointer_sha256" CHAR(64),

    CONSTRAINT "summary_link_pkey" PRIMARY KEY ("session_id","summary_span_id","replaced_span_id")
);

-- CreateTable
CREATE TABLE "gate_decision" (
    "session_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "reclamation_id" UUID NOT NULL,
    "verdict" "Verdict" NOT NULL,
    "cell_class" "EvidentialClass" NOT NULL,
    "cell_provenance" "ProvenanceStatus" NOT NULL,
    "reason" TEXT NOT NULL,
    "requester" TEXT NOT NULL,
    "dry_run" BOOLEAN NOT NULL DEFAULT false,
    "decided_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gate_decision_pkey" PRIMARY KEY ("session_id","id")
);

-- CreateTable
CREATE TABLE "refusal_event" (
    "session_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "span_id" UUID NOT NULL,
    "decision_id" UUID NOT NULL,
    "cell_class" "EvidentialClass" NOT NULL,
    "cell_provenance" "ProvenanceStatus" NOT NULL,
    "reason" TEXT NOT NULL,
    "requester" TEXT NOT NULL,
    "atoms_at_risk" JSONB NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refusal_event_pkey" PRIMARY KEY ("session_id","id")
);

-- CreateTable
CREATE TABLE "retention_policy" (
    "project_id" UUID NOT NULL,
    "evidence_horizon_days" INTEGER NOT NULL,
    "ttl_narrative_days" INTEGER NOT NULL,
    "ttl_structured_days" INTEGER NOT NULL,
    "ttl_side_effecting_days" INTEGER NOT NULL,
    "evidence_workloads" BOOLEAN NOT NULL DEFAULT true,
    "system_config_prefixes" TEXT[],
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retention_policy_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "project_id" UUID,
    "actor_type" "ActorType" NOT NULL,
    "actor_id" TEXT,
    "actor_label" TEXT NOT NULL,
    "act" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "reason" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "project_slug_key" ON "project"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_project_id_idx" ON "api_key"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "app_user_email_key" ON "app_user"("email");

-- CreateIndex
CREATE INDEX "session_project_id_last_activity_at_idx" ON "session"("project_id", "last_activity_at");

-- CreateIndex
CREATE UNIQUE INDEX "session_project_id_external_id_key" ON "session"("project_id", "external_id");

-- CreateIndex
CREATE INDEX "span_id_idx" ON "span"("id");

-- CreateIndex
CREATE INDEX "span_session_id_class_transcript_state_idx" ON "span"("session_id", "class", "transcript_state");

-- CreateIndex
CREATE UNIQUE INDEX "span_session_id_seq_key" ON "span"("session_id", "seq");

-- CreateIndex
CREATE INDEX "span_original_expires_at_pinned_idx" ON "span_original"("expires_at", "pinned");

-- CreateIndex
CREATE INDEX "evidence_atom_kind_normalized_idx" ON "evidence_atom"("kind", "normalized");

-- CreateIndex
CREATE INDEX "evidence_atom_effect_normalized_idx" ON "evidence_atom"("effect", "normalized");

-- CreateIndex
CREATE INDEX "summary_link_session_id_replaced_span_id_idx" ON "summary_link"("session_id", "replaced_span_id");

-- CreateIndex
CREATE INDEX "gate_decision_session_id_span_id_decided_at_idx" ON "gate_decision"("session_id", "span_id", "decided_at");

-- CreateIndex
CREATE INDEX "refusal_event_project_id_occurred_at_idx" ON "refusal_event"("project_id", "occurred_at");

-- CreateIndex
CREATE INDEX "refusal_event_session_id_occurred_at_idx" ON "refusal_event"("session_id", "occurred_at");

-- CreateIndex
CREATE INDEX "audit_log_project_id_at_idx" ON "audit_log"("project_id", "at");

-- CreateIndex
CREATE INDEX "audit_log_target_type_target_id_idx" ON "audit_log"("target_type", "target_id");

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "span" ADD CONSTRAINT "span_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "span_original" ADD CONSTRAINT "span_original_session_id_span_id_fkey" FOREIGN KEY ("session_id", "span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence_atom" ADD CONSTRAINT "evidence_atom_session_id_span_id_fkey" FOREIGN KEY ("session_id", "span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "summary_link" ADD CONSTRAINT "summary_link_session_id_summary_span_id_fkey" FOREIGN KEY ("session_id", "summary_span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "summary_link" ADD CONSTRAINT "summary_link_session_id_replaced_span_id_fkey" FOREIGN KEY ("session_id", "replaced_span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gate_decision" ADD CONSTRAINT "gate_decision_session_id_span_id_fkey" FOREIGN KEY ("session_id", "span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refusal_event" ADD CONSTRAINT "refusal_event_session_id_span_id_fkey" FOREIGN KEY ("session_id", "span_id") REFERENCES "span"("session_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "retention_policy" ADD CONSTRAINT "retention_policy_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "project"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
