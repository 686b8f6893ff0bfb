/**
 * SWE-agent's steps as spans: what a trajectory step or a history entry becomes, the tool name
 * and arguments of an action, and the outcome its observation implies. See ./index for the
 * file layout and how steps and history entries are merged.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { isRecord, str } from "../shared/text";

/**
 * The agent's own commands (SWE-agent's tool bundles: windowed editor, search, edit, submit).
 * Any other action line is run as is by the bash session SWE-agent keeps: its tool is "bash",
 * the name SWE-agent's function-calling configurations give that tool too.
 */
export const SWE_AGENT_COMMANDS: ReadonlySet<string> = new Set([
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "create",
  "edit",
  "insert",
  "append",
  "submit",
  "search_dir",
  "search_file",
  "find_file",
  "filemap",
  "str_replace_editor",
  "forfeit",
  "exit_forfeit",
]);

export interface ToolCallShape {
  toolName: string;
  toolInput: unknown;
  /** The call's arguments as the file holds them (a command line, or a function call's JSON). */
  args: string;
  sourceId?: string;
}

/** Words of a command line's first line, with simple surrounding quotes removed. */
function operands(line: string): string[] {
  const first = line.split("\n", 1)[0] ?? "";
  const words = first.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  return words.slice(1).map((w) => (/^(["']).*\1$/.test(w) ? w.slice(1, -1) : w));
}

/**
 * A command-line action: toolName is SWE-agent's command when the line starts with one, else
 * "bash"; toolInput is `{ command: action }`, plus the operands the command's signature names
 * where they say which file it writes (`create <filename>`, `str_replace_editor <command> <path>`),
 * so the path is an argument of the call and not only a word in it.
 */
export function commandLineCall(action: string): ToolCallShape {
  const first = /^\s*([A-Za-z_][\w-]*)/.exec(action)?.[1];
  if (first === undefined || !SWE_AGENT_COMMANDS.has(first)) {
    return { toolName: "bash", toolInput: { command: action }, args: action };
  }
  const ops = operands(action.trimStart());
  if (first === "str_replace_editor") {
    const input: Record<string, string> = {};
    if (ops[0] !== undefined) input.command = ops[0];
    if (ops[1] !== undefined) input.path = ops[1];
    return { toolName: first, toolInput: input, args: action };
  }
  const input: Record<string, string> = { command: action };
  if (first === "create" && ops[0] !== undefined) input.filename = ops[0];
  return { toolName: first, toolInput: input, args: action };
}

/**
 * Function calls a history entry holds (`tool_calls`, OpenAI's shape: `{id, function: {name,
 * arguments}}` with the arguments as a JSON string, or already an object).
 */
export function functionCalls(entry: Record<string, unknown>): ToolCallShape[] {
  if (!Array.isArray(entry.tool_calls)) return [];
  const out: ToolCallShape[] = [];
  for (const call of entry.tool_calls) {
    if (!isRecord(call)) continue;
    const fn = isRecord(call.function) ? call.function : call;
    const name = str(fn.name);
    if (name === undefined || name === "") continue;
    const raw = fn.arguments;
    let args: string;
    let input: unknown;
    if (typeof raw === "string") {
      args = raw;
      try {
        input = JSON.parse(raw);
      } catch {
        input = { arguments: raw };
      }
    } else {
      input = raw ?? {};
      args = JSON.stringify(input);
    }
    const id = str(call.id);
    out.push({ toolName: name, toolInput: input, args, ...(id ? { sourceId: id } : {}) });
  }
  return out;
}

/** What the run's own messages say about an observation. */
export interface ObservationFacts {
  /** The raw observation of the trajectory step ("" when it printed nothing). */
  observation?: string;
  /** The observation as the history shows it to the model (templated). */
  shown?: string;
  /** False when the step is known not to have run (a requery the history left out). */
  executed?: boolean;
  /** The step was refused by SWE-agent's blocklist. */
  blocked?: boolean;
  toolName?: string;
}

// Failures as SWE-agent's tools and the shell report them, at the start of the observation.
const FAILURE_PATTERNS: RegExp[] = [
  /^Your proposed edit has introduced new syntax error/,
  /^Traceback \(most recent call last\):/,
  /^(?:Usage|usage): /,
  /^(?:Error|ERROR)\b/,
  /^No replacement was performed/,
  /^(?:bash: )?(?:line \d+: )?[^\s:]+: command not found/,
  /^[\w./-]+: (?:cannot [\w ]+ '[^'\n]*': )?No such file or directory/,
  /^File [^\n]* not found\s*$/m,
  /^Directory [^\n]* not found\s*$/m,
  /^The path [^\n]* does not exist/,
  /^Invalid `[\w]+` parameter/,
];

// Reports of a command that ran as asked.
const SUCCESS_PATTERNS: RegExp[] = [
  /^Your command ran successfully and did not produce any output/,
  /^\[File: [^\n]*\(\d+ lines total\)\]/,
  /^File updated\./,
  /^Text replaced\./,
  /^File created successfully at:/,
  /^The file [^\n]* has been edited\./,
  /^Found \d+ matches for /,
  /^No matches found for /,
  /^More than \d+ files matched for /,
];

const TIMEOUT = /^The command [\s\S]* was cancelled because it took more than \d+ seconds/;

/**
 * The outcome of an action. SWE-agent records no exit codes, so only what its messages state:
 * a step the history left out and that printed nothing never ran (NOT_RUN, DECLINED when its
 * blocklist refused it); a cancelled command is UNKNOWN; error reports of its tools and of the
 * shell are FAILED; the reports its tools print on success, and its own "ran successfully and did
 * not produce any output" for an empty output, are SUCCEEDED; `submit` whose output is the patch
 * SUCCEEDED. Anything else is UNKNOWN.
 */
export function outcomeOf(facts: ObservationFacts): ToolOutcome {
  const obs = facts.observation;
  if (facts.executed === false && (obs === undefined || obs.trim() === "")) {
    return facts.blocked ? "DECLINED" : "NOT_RUN";
  }
  const texts = [obs, facts.shown].filter((t): t is string => t !== undefined && t.trim() !== "").map((t) => t.trimStart());
  for (const t of texts) {
    if (TIMEOUT.test(t)) return "UNKNOWN";
    if (FAILURE_PATTERNS.some((p) => p.test(t))) return "FAILED";
  }
  if (facts.toolName === "submit" && obs !== undefined && /^diff --git /m.test(obs)) return "SUCCEEDED";
  for (const t of texts) if (SUCCESS_PATTERNS.some((p) => p.test(t))) return "SUCCEEDED";
  if (facts.executed === true && obs !== undefined && obs.trim() === "" && facts.shown === undefined) {
    // SWE-agent shows an empty output to the model as "ran successfully" (its no-output template).
    return "SUCCEEDED";
  }
  return "UNKNOWN";
}

/** The blocklist's refusal, as the next query shows it to the model. */
export const BLOCKED = /is not supported by this environment/;

/** Text of a history entry's content: a string, or a list of text parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part === "string" ? part : isRecord(part) ? (str(part.text) ?? "") : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** The text of a history entry's thinking blocks (Anthropic extended thinking), if any. */
export function thinkingText(entry: Record<string, unknown>): string {
  if (!Array.isArray(entry.thinking_blocks)) return "";
  return entry.thinking_blocks
    .map((b) => (isRecord(b) ? (str(b.thinking) ?? "") : ""))
    .filter((t) => t !== "")
    .join("\n\n");
}

/** The working directory a step's `state` reports (a dict, or in older versions a JSON string). */
export function workingDirOf(state: unknown): string | undefined {
  let s = state;
  if (typeof s === "string") {
    try {
      s = JSON.parse(s);
    } catch {
      return undefined;
    }
  }
  if (!isRecord(s)) return undefined;
  const dir = str(s.working_dir);
  return dir?.startsWith("/") ? dir : undefined;
}
