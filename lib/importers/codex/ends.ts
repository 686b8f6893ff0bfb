/**
 * Whether a Codex rollout holds its session from start to end. The rollout recorder writes the
 * session's `session_meta` first (a bare meta object in the legacy layout), so a file whose first
 * record is anything else starts after its session began. A runtime that records turn events
 * closes every turn it starts (`task_started`/`turn_started`) with `task_complete`/`turn_complete`
 * or `turn_aborted`, so a file whose last turn never closes ends before its session ended: cut, or
 * still being written. A rollout without turn events (older runtimes) cannot tell its end.
 */
import type { ImportCollector, SessionDraft } from "../shared/builder";
import type { JsonLine } from "../shared/jsonl";
import { ENDS_BEFORE_SESSION } from "../shared/partial-end";
import { STARTS_AFTER_SESSION } from "../shared/partial-start";
import { TURN_ENDS, TURN_STARTS } from "./turn-items";

export class CodexEnds {
  private firstLine: number | undefined;
  private lastLine = 0;
  private metaFirst = false;
  private turnEvents = false;
  /** The line of the turn start not closed yet, if any. */
  private openTurn: number | undefined;

  /** Every line, in file order, with its turn event type if it is one. */
  see(line: JsonLine, turnType: string | undefined): void {
    this.firstLine ??= line.line;
    this.lastLine = line.line;
    if (turnType === undefined) return;
    if (TURN_STARTS.has(turnType)) {
      this.turnEvents = true;
      this.openTurn = line.line;
    } else if (TURN_ENDS.has(turnType)) {
      this.turnEvents = true;
      this.openTurn = undefined;
    }
  }

  /** The line holds the session's meta record. */
  meta(line: JsonLine): void {
    if (line.line === this.firstLine) this.metaFirst = true;
  }

  /** Marks the session incomplete at each end the file lacks. */
  mark(collector: ImportCollector, draft: SessionDraft | undefined): void {
    if (draft === undefined || this.firstLine === undefined) return;
    if (!this.metaFirst)
      collector.incomplete(
        this.firstLine,
        `${STARTS_AFTER_SESSION}: its first record is not the session_meta the runtime writes first, so the records before it are missing`,
        draft,
      );
    if (this.turnEvents && this.openTurn !== undefined)
      collector.incomplete(
        this.lastLine + 1,
        `${ENDS_BEFORE_SESSION}: the turn started at line ${this.openTurn} has no task_complete or turn_aborted, so its end is not in the file (cut, or still being written)`,
        draft,
      );
  }
}
