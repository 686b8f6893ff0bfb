/**
 * The reason an importer gives when a file ends before its session ended: the runtime writes a
 * closing record (a Codex turn's task_complete or turn_aborted, an OpenHands run's final state)
 * and the file stops without it. The mark sits one past the file's last record, where the missing
 * records would be. A live session's file always ends so while the agent works: a later import or
 * sync of the same session that reads further supersedes the mark. Kept free of the importers'
 * other modules so the server's ingest loads nothing else for it.
 */
export const ENDS_BEFORE_SESSION = "the file ends before its session ended";

/** The issue says the file (or the part read) ends before its session ended. */
export function endsBeforeSession(issue: { message: string }): boolean {
  return issue.message.startsWith(ENDS_BEFORE_SESSION);
}
