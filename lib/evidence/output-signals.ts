/**
 * What a call's own output says about how it ended, beside the runtime's exit code (docs/design.md,
 * "Outcomes": an outcome reads every signal and records the doubt where they disagree).
 *
 * A runtime reports the exit code of the last command of a line, or of the pipe's last stage, or
 * of a shell that never ran the command at all: `curl ... | jq` exits 0 when the server refused
 * the request, `echo "#!/bin/bash"` in an interactive bash dies on history expansion while the
 * runtime still says 0. The output keeps what the code lost. The rules, each tested on real output:
 *
 * - `shell`: a line the shell itself wrote about an error ("bash: x: command not found",
 *   "bash: !/bin/bash: event not found", "sh: 1: cannot create /x/y: Directory nonexistent",
 *   "bash: -c: line 1: syntax error near unexpected token", "zsh: event not found: /Cut"). The
 *   shell writes such a line only when it failed to run what it was given. Its notices about job
 *   control and locales are not errors.
 * - `http`: from a command that runs an HTTP client (curl, wget, httpie, xh) or an HTTP tool: a
 *   response status line of 4xx/5xx (`curl -i`), a lone 4xx/5xx status as the last line (`curl -w
 *   '%{http_code}'`), curl's and wget's own errors, or a JSON body that says it failed
 *   ("status":"error"/"fail", a non-empty "error", "success":false, "ok":false).
 * - `traceback`: a Python traceback ("Traceback (most recent call last):").
 * - `package-manager`: npm's "npm ERR!"/"npm error", apt's "E: ", pip's "ERROR: Could not ...",
 *   "error: externally-managed-environment".
 *
 * Shell, HTTP and package-manager signals from the tool the command ran are decisive (the call
 * FAILED, and the exit code the runtime gave stays beside it); a traceback, or a package manager's
 * error in the output of a command that did not run one (it may be a log being read), only makes
 * the outcome UNKNOWN.
 */
import type { ToolOutcome } from "./outcomes";

export type OutputSignalSource = "shell" | "http" | "traceback" | "package-manager";

export interface OutputSignal {
  source: OutputSignalSource;
  /** The line of the output that reports the error, as written (trimmed, at most 200 characters). */
  line: string;
  /** Written by what the call ran, about the call itself: the call failed whatever its exit code. */
  decisive: boolean;
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g;

/** A line the shell wrote: its name (a path, a login shell's "-"), then a line number or "-c". */
const SHELL_LINE = /^-?(?:\/\S*\/)?(?:bash|sh|zsh|dash|ksh|ash)(?:: line \d+|: \d+|: -c)*(?:: line \d+)?: (.+)$/;
const SHELL_ERRORS =
  /command not found|event not found|no such file or directory|syntax error|unexpected EOF|unbound variable|bad substitution|ambiguous redirect|cannot create|directory nonexistent|permission denied|: not found$|is a directory|cannot execute|bad interpreter|no matches found|parse error/i;
/** Lines the shell writes that are not about the command: a shell without a terminal says these. */
const SHELL_NOTICES = /^warning:|no job control|cannot set terminal process group|initialize_job_control|setlocale/i;

const HTTP_CLIENT = /(?:^|[\s;&|(`$])(?:curl|wget|http|https|xh)(?=\s|$)/;
const STATUS_LINE = /^HTTP\/[\d.]+ ([45]\d\d)\b/;
const CLIENT_ERROR = /^(?:curl: \(\d+\) .+|.*ERROR (?:[45]\d\d|\d+): .+)$/;
const LONE_STATUS = /^(?:[A-Za-z_ -]{0,24}[:= ]\s*)?([45]\d\d)$/;
const ERROR_STATUS = /^(?:error|fail|failed|failure)$/i;

const TRACEBACK = /^Traceback \(most recent call last\):$/;
const PACKAGE_ERRORS =
  /^(?:npm ERR! .+|npm error .+|E: .+|ERROR: (?:Could not|No matching distribution|Failed|Cannot|Invalid requirement).*|error: externally-managed-environment)$/;
const PACKAGE_MANAGER = /(?:^|[\s;&|(])(?:npm|npx|pnpm|yarn|pip|pip3|uv|apt|apt-get|dpkg)(?=\s|$)/;

/**
 * The first error the output reports, by the rules above; null when it reports none. `command` is
 * the command line the call ran, when it had one; `httpTool` says the call is an HTTP request.
 */
export function outputErrorSignal(output: string, command?: string, httpTool = false): OutputSignal | null {
  const lines = output
    .replace(ANSI, "")
    .split(/\r?\n|\r/)
    .map((l) => l.trim());
  const http = httpTool || (command !== undefined && HTTP_CLIENT.test(command));
  const packages = command !== undefined && PACKAGE_MANAGER.test(command);
  let weak: OutputSignal | null = null;
  for (const line of lines) {
    const shell = SHELL_LINE.exec(line);
    if (shell && SHELL_ERRORS.test(shell[1]!) && !SHELL_NOTICES.test(shell[1]!)) return signal("shell", line, true);
    if (http && (STATUS_LINE.test(line) || CLIENT_ERROR.test(line) || jsonReportsError(line))) return signal("http", line, true);
    if (PACKAGE_ERRORS.test(line)) {
      if (packages) return signal("package-manager", line, true);
      weak ??= signal("package-manager", line, false);
    }
    if (TRACEBACK.test(line)) weak ??= signal("traceback", line, false);
  }
  if (http) {
    const whole = output.replace(ANSI, "").trim();
    if (jsonReportsError(whole)) return signal("http", whole.split("\n")[0]!, true);
    const last = lines.filter((l) => l !== "").at(-1);
    if (last !== undefined && command !== undefined && /(?:-w|--write-out)\b/.test(command) && LONE_STATUS.test(last))
      return signal("http", last, true);
  }
  return weak;
}

/** An outcome with the doubt its signals leave, when they disagree. */
export interface ReadOutcome {
  outcome: ToolOutcome;
  /** Why the outcome is not what the runtime said, naming the line that says otherwise. */
  doubt?: string;
}

/**
 * A call the runtime says SUCCEEDED, read against its output: a decisive error makes it FAILED
 * when the runtime gave an exit code (the code is kept: FAILED with exit 0 is the disagreement,
 * on record) and UNKNOWN when it gave only the absence of an error flag; a weak one makes it
 * UNKNOWN. Any other outcome is the runtime's, kept as it is.
 */
export function readOutputIntoOutcome(
  call: { outcome: ToolOutcome; exitCode?: number },
  output: string,
  command?: string,
  httpTool = false,
): ReadOutcome {
  if (call.outcome !== "SUCCEEDED") return { outcome: call.outcome };
  const found = outputErrorSignal(output, command, httpTool);
  if (!found) return { outcome: call.outcome };
  const said = call.exitCode !== undefined ? `exit ${call.exitCode}` : "no error";
  const who =
    found.source === "package-manager"
      ? "the package manager"
      : found.source === "traceback"
        ? "a traceback"
        : `the ${found.source === "http" ? "HTTP response" : "shell"}`;
  const doubt = `the runtime reported ${said}, but ${who} in the output reports an error: ${found.line}`;
  const outcome: ToolOutcome = found.decisive && call.exitCode !== undefined ? "FAILED" : "UNKNOWN";
  return { outcome, doubt };
}

function signal(source: OutputSignalSource, line: string, decisive: boolean): OutputSignal {
  return { source, line: line.length > 200 ? `${line.slice(0, 199)}…` : line, decisive };
}

/** A JSON object (one line or the whole output) whose own fields say the request failed. */
function jsonReportsError(text: string): boolean {
  if (!text.startsWith("{") || !text.endsWith("}")) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.status === "string" && ERROR_STATUS.test(v.status)) return true;
  if (v.success === false || v.ok === false) return true;
  const e = v.error ?? v.errors;
  if (e === undefined || e === null || e === false || e === "") return false;
  return !(Array.isArray(e) && e.length === 0) && !(typeof e === "object" && Object.keys(e).length === 0);
}
