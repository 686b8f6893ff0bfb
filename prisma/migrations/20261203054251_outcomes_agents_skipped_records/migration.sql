-- CreateEnum
CREATE TYPE "ToolOutcome" AS ENUM ('SUCCEEDED', 'FAILED', 'DECLINED', 'NOT_RUN', 'UNKNOWN');

-- AlterTable
ALTER TABLE "span" ADD COLUMN     "agent_id" TEXT,
ADD COLUMN     "agent_type" TEXT,
ADD COLUMN     "outcome" "ToolOutcome",
ADD COLUMN     "source_line" INTEGER;

-- CreateTable
CREATE TABLE "skipped_record" (
    "session_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "recorded_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skipped_record_pkey" PRIMARY KEY ("session_id","line")
);

-- AddForeignKey
ALTER TABLE "skipped_record" ADD CONSTRAINT "skipped_record_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A skipped record makes its session incomplete: stored question verdicts over it are stale.
CREATE TRIGGER evidence_version_skipped_insert AFTER INSERT ON skipped_record
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();
CREATE TRIGGER evidence_version_skipped_delete AFTER DELETE ON skipped_record
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION session_evidence_version_bump();

-- System config is now a named list rather than every dot-folder under home ("~/.*" made a plan
-- file under ~/.claude/plans/ count as system config). Policies still holding the old default list,
-- unedited, move to the new default; a list an owner edited stays as it is.
UPDATE retention_policy
   SET system_config_prefixes = ARRAY['/etc/', '/usr/', '/boot/', '/lib/', '/lib64/', '/opt/', '/var/lib/dpkg/', '/var/lib/apt/', '/var/lib/rpm/', '/var/lib/yum/', '/var/lib/dnf/', '/var/lib/pacman/', '/var/spool/cron/', '~/.config/systemd/user/', '~/.bashrc', '~/.bash_profile', '~/.bash_login', '~/.bash_logout', '~/.profile', '~/.zshrc', '~/.zshenv', '~/.zprofile', '~/.zlogin', '~/.config/fish/config.fish', '~/.config/fish/conf.d/', '~/.ssh/', '~/.gnupg/', '~/.netrc', '~/.aws/config', '~/.aws/credentials', '~/.kube/config', '~/.docker/config.json', '~/.gitconfig', '~/.config/git/config', '~/.npmrc', '~/.pypirc', '~/.config/pip/pip.conf', '~/.pip/pip.conf', '~/.cargo/config.toml', '~/.claude/settings.json', '~/.claude/settings.local.json', '~/.claude.json', '~/.codex/config.toml', '~/.gemini/settings.json', '~/.aider.conf.yml', '~/.openhands/settings.json', '~/.config/openhands/settings.json']::text[]
 WHERE system_config_prefixes = ARRAY['/etc/', '/usr/', '/boot/', '/lib/systemd/', '/var/lib/', '~/.bashrc', '~/.bash_profile', '~/.profile', '~/.zshrc', '~/.ssh/', '~/.gitconfig', '~/.*']::text[];
