/**
 * The reason an importer gives when a file starts after its session began (a session's first
 * record names a parent the file does not hold). A reader that parses a file from a line of its own
 * choosing (the hooks' incremental import, from a quiescent line) knows that such a start is its
 * own cut, not a missing record, and sets these reasons aside. Kept free of the importers' other
 * modules so such a reader loads nothing else for it.
 */
export const STARTS_AFTER_SESSION = "the file starts after its session began";

/** The issue says the file (or the part read) starts after its session began. */
export function startsAfterSession(issue: { message: string }): boolean {
  return issue.message.startsWith(STARTS_AFTER_SESSION);
}
