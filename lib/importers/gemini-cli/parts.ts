/**
 * Gemini CLI message content: a string or a list of Gemini API parts (`text`, `thought`,
 * `functionCall`, `functionResponse`, `inlineData`, `fileData`, ...), and what a tool call's
 * recorded status and response say about its outcome.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { isRecord, str } from "../shared/text";

export interface FunctionCallPart {
  /** Index of the part in the content list, for slicing its arguments verbatim. */
  index: number;
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface FunctionResponsePart {
  id?: string;
  name?: string;
  response: unknown;
  /** Text of the parts that follow it up to the next function response (extra output). */
  trailing: string[];
}

export interface ContentParts {
  text: string[];
  thoughts: string[];
  calls: FunctionCallPart[];
  responses: FunctionResponsePart[];
  /** Descriptions of parts that carry no text (inline data, file data) or whose text is code the model ran and its result. */
  other: string[];
  /** Parts of a shape no Gemini part has (wrong types): what they held is lost. */
  malformed: number;
}

/** Splits a message's `content` (string, part, or part list) into what each part carries. */
export function contentParts(content: unknown): ContentParts {
  const out: ContentParts = { text: [], thoughts: [], calls: [], responses: [], other: [], malformed: 0 };
  if (typeof content === "string") {
    if (content !== "") out.text.push(content);
    return out;
  }
  if (content !== undefined && content !== null && typeof content !== "object") out.malformed++;
  const parts = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  let lastResponse: FunctionResponsePart | undefined;
  parts.forEach((part, index) => {
    if (typeof part === "string") {
      if (part !== "") out.text.push(part);
      return;
    }
    if (!isRecord(part)) {
      out.malformed++;
      return;
    }
    const text = str(part.text);
    if (!wellFormedPart(part)) out.malformed++;
    if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      out.calls.push({
        index,
        name: str(call.name) ?? "unknown",
        args: isRecord(call.args) ? call.args : {},
        ...(str(call.id) !== undefined ? { id: str(call.id) } : {}),
      });
    } else if (isRecord(part.functionResponse)) {
      const response = part.functionResponse;
      lastResponse = {
        response: response.response,
        trailing: [],
        ...(str(response.id) !== undefined ? { id: str(response.id) } : {}),
        ...(str(response.name) !== undefined ? { name: str(response.name) } : {}),
      };
      out.responses.push(lastResponse);
    } else if (text !== undefined) {
      if (lastResponse) lastResponse.trailing.push(text);
      else if (part.thought === true) out.thoughts.push(text);
      else if (text !== "") out.text.push(text);
    } else if (isRecord(part.executableCode) || isRecord(part.codeExecutionResult)) {
      // Code the model ran with Gemini's code execution, and its result: kept as text.
      const code = isRecord(part.executableCode) ? part.executableCode : undefined;
      const result = isRecord(part.codeExecutionResult) ? part.codeExecutionResult : undefined;
      const note = code
        ? `[executable code${str(code.language) ? ` ${str(code.language)}` : ""}]\n${str(code.code) ?? ""}`
        : `[code execution result${str(result?.outcome) ? ` ${str(result?.outcome)}` : ""}]\n${str(result?.output) ?? ""}`;
      if (lastResponse) lastResponse.trailing.push(note);
      else out.other.push(note);
    } else if (isRecord(part.inlineData) || isRecord(part.fileData)) {
      const data = (isRecord(part.inlineData) ? part.inlineData : part.fileData) as Record<string, unknown>;
      const note = `[${isRecord(part.inlineData) ? "inline data" : "file data"}${str(data.mimeType) ? ` ${str(data.mimeType)}` : ""}${str(data.fileUri) ? ` ${str(data.fileUri)}` : ""}]`;
      if (lastResponse) lastResponse.trailing.push(note);
      else out.other.push(note);
    }
  });
  return out;
}

/** A part whose known fields have their types, and which has at least one field a part can have. */
function wellFormedPart(part: Record<string, unknown>): boolean {
  if (part.text !== undefined && typeof part.text !== "string") return false;
  if (part.functionCall !== undefined && !(isRecord(part.functionCall) && typeof part.functionCall.name === "string"))
    return false;
  if (
    part.functionCall !== undefined &&
    isRecord(part.functionCall) &&
    part.functionCall.args !== undefined &&
    !isRecord(part.functionCall.args)
  ) {
    return false;
  }
  if (part.functionResponse !== undefined && !isRecord(part.functionResponse)) return false;
  return PART_KEYS.some((k) => part[k] !== undefined);
}

const PART_KEYS = [
  "text",
  "functionCall",
  "functionResponse",
  "inlineData",
  "fileData",
  "executableCode",
  "codeExecutionResult",
  "videoMetadata",
];

/**
 * The response for call `id` in a tool call's recorded `result`. Gemini CLI has written the whole
 * turn's responses into each call's result, so the one whose id matches is taken; a result with no
 * ids at all belongs to the call.
 */
export function responseFor(result: unknown, id: string | undefined): FunctionResponsePart | undefined {
  const { responses } = contentParts(result);
  if (responses.length === 0) return undefined;
  const byId = responses.find((r) => r.id !== undefined && r.id === id);
  if (byId) return byId;
  return responses.every((r) => r.id === undefined) ? responses[0] : undefined;
}

/** What the model was told: the response's `output`, else its `error`, else the response as JSON. */
export function responseText(part: FunctionResponsePart): string {
  const r = part.response;
  let text: string;
  if (isRecord(r) && typeof r.output === "string") text = r.output;
  else if (isRecord(r) && typeof r.error === "string") text = r.error;
  else if (typeof r === "string") text = r;
  else text = r === undefined ? "" : JSON.stringify(r);
  return [text, ...part.trailing].filter((t) => t !== "").join("\n");
}

/** True when the response reports an error rather than an output. */
export function responseIsError(part: FunctionResponsePart | undefined): boolean {
  const r = part?.response;
  return isRecord(r) && r.error !== undefined && r.error !== null && r.output === undefined;
}

/** A `resultDisplay` as text: strings as they are, terminal output line by line, other shapes as JSON. */
export function displayText(display: unknown): string | undefined {
  if (display === undefined || display === null) return undefined;
  if (typeof display === "string") return display;
  if (Array.isArray(display) && display.every(Array.isArray)) {
    // AnsiOutput: lines of styled tokens.
    return display
      .map((line) =>
        (line as unknown[])
          .map((token) => (isRecord(token) ? (str(token.text) ?? "") : ""))
          .join("")
          .trimEnd(),
      )
      .join("\n")
      .trimEnd();
  }
  return JSON.stringify(display);
}

/** `Exit Code: N` as the shell tool writes it into its output (older versions also wrote 0). */
export function shellExitCode(text: string): number | undefined {
  const match = /^Exit Code: (-?\d+)\s*$/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether the shell tool reports the command was killed by a signal (`Signal: 9`). Versions up to
 * 0.23 wrote the line for every command, `Signal: 0` (or `(none)`) when none killed it.
 */
function shellSignalled(text: string): boolean {
  return /^Signal: [1-9]\d*\s*$/m.test(text);
}

/** Cancellation reasons that mean the user refused the call at its confirmation prompt. */
const DECLINED_REASONS = /User did not allow tool call|User denied execution/i;
/** Reasons given to queued calls cancelled before they started, after another call was refused. */
const NOT_RUN_REASONS = /User cancelled operation\b|Tool call cancelled by user/i;
/**
 * Errors the scheduler answers instead of running the call because a rule refused it
 * (google-gemini/gemini-cli packages/core/src/scheduler/: policy.ts getPolicyDenialError and the
 * non-interactive ASK_USER error, hook-utils.ts evaluateBeforeToolHook's block and stop).
 */
const POLICY_REFUSALS = [
  /^Tool execution denied by policy\./,
  /^Tool execution blocked: /,
  /^Agent execution stopped by hook: /,
  /^Tool execution for ".*" requires user confirmation, which is not supported in non-interactive mode\./,
];
/** The scheduler's answer to a call of a tool it does not have (TOOL_NOT_REGISTERED): never run. */
const UNKNOWN_TOOL = /^Tool "[^"]*" not found\b/;
/** The shell tool killed the command at its inactivity timeout (shell.ts; status stays "success"). */
const SHELL_TIMED_OUT = /^Command was automatically cancelled because it exceeded the timeout\b/m;
/** The shell tool moved the command to the background: it was still running when the call ended. */
const SHELL_BACKGROUND = /^Command moved to background \(PID: \d+\)/m;

/**
 * Outcome and exit code of a recorded tool call. `status` is the scheduler's terminal state:
 * success, error, or cancelled (refused at confirmation: DECLINED; dropped from the queue after a
 * refusal: NOT_RUN; interrupted while it may have been running: UNKNOWN); any other state means
 * the call was recorded before it finished (UNKNOWN). An "error" the scheduler gave because policy,
 * a BeforeTool hook or a non-interactive run refused the call is DECLINED, one for a tool it does
 * not have NOT_RUN. A "success" whose response is an error, or a shell command reporting a non-zero
 * exit code or a signal or killed at its timeout, FAILED; a shell command moved to the background
 * had not ended (UNKNOWN).
 */
export function callOutcome(
  status: unknown,
  response: FunctionResponsePart | undefined,
  text: string,
  shell: boolean,
): { outcome: ToolOutcome; exitCode?: number } {
  const exitCode = shell ? shellExitCode(text) : undefined;
  const withCode = (outcome: ToolOutcome) => (exitCode !== undefined ? { outcome, exitCode } : { outcome });
  switch (status) {
    case "success": {
      const failed = responseIsError(response) || (exitCode !== undefined && exitCode !== 0) || (shell && shellSignalled(text));
      if (failed || (shell && SHELL_TIMED_OUT.test(text))) return withCode("FAILED");
      return withCode(shell && SHELL_BACKGROUND.test(text) ? "UNKNOWN" : "SUCCEEDED");
    }
    case "error": {
      const stated = text.trimStart();
      if (POLICY_REFUSALS.some((r) => r.test(stated))) return withCode("DECLINED");
      return withCode(UNKNOWN_TOOL.test(stated) ? "NOT_RUN" : "FAILED");
    }
    case "cancelled":
      if (DECLINED_REASONS.test(text)) return withCode("DECLINED");
      if (NOT_RUN_REASONS.test(text)) return withCode("NOT_RUN");
      return withCode("UNKNOWN");
    default:
      return withCode("UNKNOWN");
  }
}

/** Where a session says it ran: the directory its injected context names, if any. */
export function workspaceOf(text: string): string | undefined {
  const older = /I'm currently working in the directory: ([^\n]+)/.exec(text);
  if (older) return older[1]!.trim();
  const newer = /Workspace Directories:\*\*\s*\n\s*- ([^\n]+)/.exec(text);
  return newer ? newer[1]!.trim() : undefined;
}
