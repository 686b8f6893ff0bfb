/**
 * A shell call that exited 0 although an earlier command of its script may have failed
 * (docs/formats.md, "Outcomes"). The exit status is the last command's (shell/exit-status.ts); when
 * the script has an earlier command whose failure that status would not show, and the output
 * reports an error, the success is in doubt: the call is UNKNOWN, with the reason.
 *
 * The output is read with output-signals' rules, and also for the error lines that compilers, test
 * runners, linters and tools write at the start of a line ("error: ...", "fatal: ...", "FAIL ...",
 * "✖ 3 problems", "2 failed", "Found 4 errors"): on their own such lines prove nothing (a tool may
 * report errors and still succeed), but beside a status that may not be theirs they are doubt.
 */
import type { ToolOutcome } from "./outcomes";
import { outputErrorSignal, type ReadOutcome } from "./output-signals";
import { type HiddenBy, hiddenEarlierFailure } from "./shell/exit-status";
import type { ScriptOfCommand } from "./shell/script-of";

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

/** Lines a tool writes when something failed; each anchored, so source text quoted in the output rarely matches. */
const FAILURE_LINES: readonly RegExp[] = [
  /^(?:error|fatal|Error|ERROR|FATAL)(?:\[[\w-]+\])?(?: \([^)]*\))?: \S/,
  /^\S+?(?:\(\d+,\d+\)|:\d+(?::\d+)?):? (?:fatal )?error(?: TS\d+)?:/,
  /^(?:FAIL|FAILED|ERROR)\s+\S/,
  /^[✖✗×✘]\s+\S/,
  /^Found [1-9]\d* errors?\b/,
  /(?:^|[\s,(=|:])[1-9]\d* (?:failed|failing|errors?)(?:[\s,.)=|]|$)/,
  /^make(?:\[\d+\])?: \*\*\* /,
  /\b(?:exited with (?:exit )?(?:code|status)|exit (?:code|status)|returned non-zero exit status) [1-9]\d*/i,
];

const HOW: Record<HiddenBy, string> = {
  pipe: "runs into a pipe without pipefail",
  or: "is followed by ||",
  sequence: "is followed by another command without set -e",
  background: "runs in the background",
};

/** The first line of `output` that reports a failure, by output-signals' rules or the lines above. */
export function failureLine(output: string, script?: string): string | null {
  const signal = outputErrorSignal(output, script);
  if (signal) return signal.line;
  for (const raw of output.replace(ANSI, "").split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (FAILURE_LINES.some((r) => r.test(line))) return line.length > 200 ? `${line.slice(0, 199)}…` : line;
  }
  return null;
}

/**
 * A SUCCEEDED shell call read against the structure of its script and its output: UNKNOWN with
 * the reason when an earlier command's failure may be hidden and the output reports one; any
 * other call as it is.
 */
export function readHiddenFailure(
  call: { outcome: ToolOutcome; exitCode?: number },
  output: string,
  command: ScriptOfCommand | null,
): ReadOutcome {
  if (call.outcome !== "SUCCEEDED" || command === null) return { outcome: call.outcome };
  const hidden = hiddenEarlierFailure(command.script, command);
  if (!hidden) return { outcome: call.outcome };
  const line = failureLine(output, command.script);
  if (line === null) return { outcome: call.outcome };
  const said = call.exitCode !== undefined ? `exit ${call.exitCode}` : "success";
  const earlier = hidden.command.length > 80 ? `${hidden.command.slice(0, 79)}…` : hidden.command;
  return {
    outcome: "UNKNOWN",
    doubt: `${said} may be the last command's (\`${earlier}\` ${HOW[hidden.by]}); the output reports an error: ${line}`,
  };
}
