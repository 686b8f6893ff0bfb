-- AlterTable
ALTER TABLE "summary_link" ADD COLUMN     "dropped" JSONB NOT NULL DEFAULT '[]';
