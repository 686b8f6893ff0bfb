/**
 * What installed runtime hooks run: `tsx lib/cli/hook-main.ts hook <runtime> <event>`. Loads only
 * the hook modules (no database), so a hook starts fast; `custodian hook ...` does the same work.
 */
import { runHookCommand } from "./hook-command";

const [group, ...args] = process.argv.slice(2);
runHookCommand(group === "hook" ? args : [group ?? "", ...args]).catch((error: unknown) => {
  // Never a stack trace: one line, and the runtime continues.
  process.stderr.write(`custodian: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 0;
});
