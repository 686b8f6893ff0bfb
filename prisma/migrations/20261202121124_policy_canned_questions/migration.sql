-- AlterTable
ALTER TABLE "retention_policy" ADD COLUMN     "canned_questions" JSONB NOT NULL DEFAULT '{}';
