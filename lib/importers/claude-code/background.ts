/**
 * Claude Code's background shells: a Bash call run in the background answers at once ("Command
 * running in background with ID: X", its outcome UNKNOWN), and later calls read it (BashOutput in
 * 1.0 with `bash_id`, TaskOutput in 2.x with `task_id`) or stop it (KillBash / KillShell with
 * `shell_id`). A read whose result says the shell ended (`<status>completed</status>` with its
 * `<exit_code>`, or `failed`) finishes the Bash call: its outcome is that final one. A shell
 * killed, or never seen to end, leaves the call UNKNOWN (which blocks a NO to outcome questions).
 *
 * While a shell runs, its call is held (the reader's `awaiting`), so a window is not cut between
 * the call and the read that ends it; a hold lapses after HOLD_LINES lines of the file, and a read
 * that far after its call no longer changes it, whether read whole or in windows (the same
 * outcome both ways: a session with a server left running for hours is not held in memory).
 */
import type { DraftSpan } from "../shared/builder";
import { isRecord } from "../shared/text";

export const HOLD_LINES = 2000;

const STARTED = /^Command running in background with ID: (\S+)/;
const READERS = new Set(["BashOutput", "TaskOutput"]);
const KILLERS = new Set(["KillBash", "KillShell"]);

export class BackgroundShells {
  private readonly running = new Map<string, { call: DraftSpan; line: number }>();

  constructor(private readonly awaiting: Set<string>) {}

  /** The result of `call` (read at `line`): a background start, a read of one, or a stop. */
  result(call: DraftSpan, text: string, toolUseResult: unknown, line: number): void {
    const name = call.toolName ?? "";
    if (name === "Bash" && call.outcome === "UNKNOWN") {
      const id = (
        isRecord(toolUseResult) && typeof toolUseResult.backgroundTaskId === "string"
          ? toolUseResult.backgroundTaskId
          : STARTED.exec(text.trimStart())?.[1]
      ) as string | undefined;
      if (id === undefined) return;
      this.running.set(id, { call, line });
      this.awaiting.add(holdKey(id));
      return;
    }
    if (!READERS.has(name) && !KILLERS.has(name)) return;
    const id = shellId(call.toolInput);
    const shell = id !== undefined ? this.running.get(id) : undefined;
    if (id === undefined || !shell) return;
    if (line - shell.line > HOLD_LINES) return this.release(id);
    if (KILLERS.has(name)) return this.release(id);
    const status = /<status>(\w+)<\/status>/.exec(text)?.[1];
    const exit = /<exit_code>(-?\d+)<\/exit_code>/.exec(text)?.[1];
    if (status === "completed" && exit !== undefined) {
      shell.call.exitCode = Number(exit);
      shell.call.outcome = Number(exit) === 0 ? "SUCCEEDED" : "FAILED";
    } else if (status === "failed") {
      shell.call.outcome = "FAILED";
      if (exit !== undefined) shell.call.exitCode = Number(exit);
    } else if (status !== "killed") return;
    this.release(id);
  }

  /** Holds older than HOLD_LINES lines before `line` lapse: their calls stay as they are. */
  expire(line: number): void {
    for (const [id, shell] of this.running) if (line - shell.line > HOLD_LINES) this.release(id);
  }

  private release(id: string): void {
    this.running.delete(id);
    this.awaiting.delete(holdKey(id));
  }
}

function holdKey(id: string): string {
  return `background shell ${id}`;
}

function shellId(input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  for (const key of ["bash_id", "task_id", "shell_id"]) if (typeof input[key] === "string") return input[key] as string;
  return undefined;
}
