/**
 * A file that ended before its session ended is marked incomplete one past its last record (see
 * ENDS_BEFORE_SESSION in lib/importers/shared/partial-end.ts). A session read while it runs always ends
 * so: the hooks sync a live transcript again and again, and an operator may import a file that is
 * still growing. Once a later read of the same session reaches the mark's line, the file went on
 * past where it ended, and the mark no longer says anything true: it is removed, before that read
 * stores its own marks (a read that still ends early marks its new end). Removing it raises the
 * session's evidence version (trigger evidence_version_skipped_delete), so stored verdicts resting
 * on it go stale.
 */
import type pg from "pg";
import { rawQuery } from "@/lib/db/client";
import { ENDS_BEFORE_SESSION } from "@/lib/importers/shared/partial-end";

/** What runs one statement: the pool, or a connection inside a transaction. */
type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Removes the session's end marks at or before `readThroughLine`, the last line (or record) the
 * new read reached; answers how many it removed.
 */
export async function supersedeEndMarks(sessionId: string, readThroughLine: number, client?: Queryable): Promise<number> {
  // A row joins every reason of its line ("; "): one where the mark shares its line with another
  // reason stays, the session incomplete, rather than lose that reason.
  const text = `delete from skipped_record
     where session_id = $1::uuid and line <= $2 and left(reason, length($3)) = $3 and position('; ' in reason) = 0
     returning line`;
  const values = [sessionId, readThroughLine, ENDS_BEFORE_SESSION];
  const rows = client ? (await client.query(text, values)).rows : await rawQuery(text, values);
  return rows.length;
}
