/**
 * What became of a Codex tool call, from the records the rollout keeps about it: the output item the
 * model saw (`function_call_output` / `custom_tool_call_output`) and the runtime's end event
 * (`exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`). The strings matched here are the ones
 * the runtime itself writes (codex-rs core: approval rejections, the exec output headers, timeouts).
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import { isRecord, str } from "../shared/text";

/** What an output item says, read from its text. */
export interface OutputFacts {
  text: string;
  exitCode?: number;
  /** `{content, success}` outputs (older runtimes) state success directly. */
  success?: boolean;
  timedOut?: boolean;
}

/** What a runtime end event says. */
export interface EndFacts {
  kind: "exec" | "patch" | "mcp";
  output: string;
  exitCode?: number;
  /** exec_command_end / patch_apply_end `status`: completed, failed or declined. */
  status?: string;
  /** patch_apply_end `success`. */
  success?: boolean;
  /** mcp_tool_call_end: `Err`, or `Ok` with isError. */
  isError?: boolean;
  cwd?: string;
}

// Content item types across the runtime's records: response items (snake_case), turn items
// (`Text`), dynamic tool outputs (camelCase).
const TEXT_ITEMS = new Set(["input_text", "output_text", "text", "summary_text", "reasoning_text", "Text", "inputText"]);
/** Images and audio: nothing an evidence question reads, but nothing lost either. */
const MEDIA_ITEMS = new Set(["input_image", "output_image", "image", "Image", "input_audio", "inputImage"]);

/** Texts of a content list (or a plain string); undefined when it is neither. */
export function contentTexts(content: unknown): { texts: string[]; unknown: string[] } | undefined {
  if (typeof content === "string") return { texts: [content], unknown: [] };
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  const unknown: string[] = [];
  for (const item of content) {
    if (!isRecord(item)) {
      unknown.push(typeof item);
      continue;
    }
    const type = str(item.type) ?? "";
    if (TEXT_ITEMS.has(type) && typeof item.text === "string") texts.push(item.text);
    else if (!MEDIA_ITEMS.has(type)) unknown.push(type);
  }
  return { texts, unknown };
}

// A person or a policy refused the call; the runtime never ran it. The runtime normalises a user's
// denial to the first two; the others are its guardian reviewer, its exec policy and hooks.
const DECLINED = [
  /^exec command rejected by user/,
  /^patch rejected by user/,
  // assess_patch_safety's refusals ("writing outside of the project; rejected by user approval settings"),
  // except the empty patch it rejects before any policy is asked (NOT_RUN below).
  /^patch rejected: (?!empty patch)/,
  /^This action was rejected due to unacceptable risk/,
  /^approval required by policy/,
  /^approval policy is [^\n]*; reject command/,
  /^`[^\n]*` rejected: policy forbids commands/,
  /^Command blocked by PreToolUse hook/,
  /^same tool request was already denied/,
];
// The runtime could not start the call at all.
const NOT_RUN = [
  /^unsupported call: /,
  /^unsupported custom tool call/,
  /^failed to parse function arguments/,
  /^patch rejected: empty patch/,
];
// The unified exec tools' own errors (codex-rs answers the model `exec_command failed: ...` or
// `write_stdin failed: ...`, e.g. "stdin is closed for this session"): the call was made and failed.
// The rollout keeps only the text, not the error flag the model was sent.
// So is apply_patch's check of a patch against the files before it writes anything
// (handlers/apply_patch.rs: "apply_patch verification failed: ...").
const RUNTIME_FAILED = [/^exec_command failed: /, /^write_stdin failed: /, /^apply_patch verification failed: /];
const TIMED_OUT = /^command timed out\b/m;
const KILLED = /\b(killed|SIGKILL|terminated by signal)\b/i;
const STILL_RUNNING = /^Process running with session ID (\d+)/m;
const STATED_EXIT = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/m;

/**
 * The unified exec session an output leaves running ("Process running with session ID N", no exit
 * code), if it does: the end event of the call that started it, perhaps turns later, says how it
 * went. A poll of the session (`write_stdin`) answers the same words but never gets an end event.
 */
export function runningSession(out: OutputFacts): string | undefined {
  return out.exitCode === undefined ? STILL_RUNNING.exec(header(verdictText(out.text)))?.[1] : undefined;
}

/** The header part of a formatted exec output (before `Output:`), where the runtime states facts. */
function header(text: string): string {
  const at = text.indexOf("\nOutput:\n");
  return at >= 0 ? text.slice(0, at + 1) : text.slice(0, 400);
}

/** The header and the first line of the output: the runtime opens a timed-out output with its notice. */
function lead(text: string): string {
  const at = text.indexOf("\nOutput:\n");
  if (at < 0) return text.slice(0, 400);
  const rest = text.slice(at + 9);
  const eol = rest.indexOf("\n");
  return text.slice(0, at + 9) + (eol < 0 ? rest : rest.slice(0, eol));
}

/**
 * A tool output's text and the facts it states. Outputs are a string (older runtimes wrap a shell's
 * in JSON `{output, metadata: {exit_code}}`; newer ones open with "Exit code: N" or, for a unified
 * exec session, "Process exited with code N"), a list of content items, or `{content, success}`.
 */
export function outputFacts(output: unknown): OutputFacts | undefined {
  if (typeof output === "string") return { text: output, ...statedFacts(output) };
  if (Array.isArray(output)) {
    const texts = contentTexts(output);
    return texts ? { text: texts.texts.join("\n") } : undefined;
  }
  if (isRecord(output) && typeof output.content === "string") {
    const stated = statedFacts(output.content);
    return {
      text: output.content,
      ...stated,
      ...(typeof output.success === "boolean" ? { success: output.success } : {}),
    };
  }
  return undefined;
}

function statedFacts(text: string): Omit<OutputFacts, "text"> {
  let inner = text;
  const out: Omit<OutputFacts, "text"> = {};
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && isRecord(parsed.metadata)) {
        if (typeof parsed.metadata.exit_code === "number") out.exitCode = parsed.metadata.exit_code;
        if (parsed.metadata.timed_out === true) out.timedOut = true;
        if (typeof parsed.output === "string") inner = parsed.output;
      }
    } catch {
      // Not the JSON wrapper: read it as text.
    }
  }
  const head = header(inner);
  const stated = STATED_EXIT.exec(head);
  if (out.exitCode === undefined && stated) out.exitCode = Number(stated[1]);
  if (TIMED_OUT.test(lead(inner))) out.timedOut = true;
  return out;
}

/** The text the runtime's own verdict strings are matched in (the wrapper's inner output, if any). */
function verdictText(text: string): string {
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && typeof parsed.output === "string") return parsed.output.trimStart();
    } catch {
      // Not JSON.
    }
  }
  return text.trimStart();
}

export function endFacts(type: string, p: Record<string, unknown>): EndFacts {
  const status = str(p.status);
  if (type === "exec_command_end") {
    const output = str(p.aggregated_output) || str(p.formatted_output) || [str(p.stdout), str(p.stderr)].filter(Boolean).join("");
    return {
      kind: "exec",
      output,
      ...(typeof p.exit_code === "number" ? { exitCode: p.exit_code } : {}),
      ...(status ? { status } : {}),
      ...(filePath(p.cwd) ? { cwd: filePath(p.cwd) } : {}),
    };
  }
  if (type === "patch_apply_end") {
    const output = [str(p.stdout), str(p.stderr)].filter(Boolean).join("");
    return {
      kind: "patch",
      output,
      ...(typeof p.success === "boolean" ? { success: p.success } : {}),
      ...(status ? { status } : {}),
    };
  }
  if (type === "dynamic_tool_call") {
    // A completed DynamicToolCall turn item: {status, success, content_items, error}.
    const output = [...(contentTexts(p.content_items)?.texts ?? []), ...(str(p.error) ? [str(p.error)!] : [])].join("\n");
    const failed = p.success === false || status === "failed" || str(p.error) !== undefined;
    const succeeded = p.success === true || status === "completed";
    return { kind: "mcp", output, ...(failed || succeeded ? { isError: failed } : {}) };
  }
  // mcp_tool_call_end: result is {Ok: {content, isError}} or {Err: message}.
  const result = isRecord(p.result) ? p.result : {};
  if (result.Err !== undefined) return { kind: "mcp", output: typeof result.Err === "string" ? result.Err : "", isError: true };
  const ok = isRecord(result.Ok) ? result.Ok : undefined;
  if (!ok) return { kind: "mcp", output: "" };
  const texts = contentTexts(ok.content)?.texts ?? [];
  const isError = ok.isError === true || ok.is_error === true;
  return { kind: "mcp", output: texts.join("\n"), isError };
}

export interface Settled {
  outcome: ToolOutcome;
  exitCode?: number;
}

/**
 * The outcome of a call from its end event and output item. A refusal (by a person, the guardian
 * or policy) is DECLINED; a call the runtime could not start is NOT_RUN; a unified exec tool's own
 * error (`write_stdin failed: ...`) with no end event or exit code is FAILED; a command still running
 * at its timeout is UNKNOWN unless the output says it was killed (then FAILED); otherwise the exit
 * code, the end event's status and error flags decide; with nothing to go on, UNKNOWN.
 */
export function settle(end: EndFacts | undefined, out: OutputFacts | undefined): Settled {
  const text = verdictText(out?.text ?? end?.output ?? "");
  if (end?.status === "declined" || DECLINED.some((r) => r.test(text))) return { outcome: "DECLINED" };
  if (NOT_RUN.some((r) => r.test(text))) return { outcome: "NOT_RUN" };
  if (end === undefined && out?.exitCode === undefined && RUNTIME_FAILED.some((r) => r.test(text))) return { outcome: "FAILED" };
  const exitCode = end?.exitCode ?? out?.exitCode;
  const withCode = exitCode === undefined ? {} : { exitCode };
  if (out?.timedOut || TIMED_OUT.test(lead(text)) || TIMED_OUT.test(lead(end?.output ?? ""))) {
    return { outcome: KILLED.test(lead(text)) ? "FAILED" : "UNKNOWN", ...withCode };
  }
  if (exitCode === undefined && STILL_RUNNING.test(header(text))) return { outcome: "UNKNOWN" };
  if (end?.kind === "mcp" && end.isError !== undefined) return { outcome: end.isError ? "FAILED" : "SUCCEEDED" };
  if (end?.kind === "patch") {
    if (end.status === "failed" || end.success === false) return { outcome: "FAILED", ...withCode };
    if (end.status === "completed" || end.success === true) return { outcome: "SUCCEEDED", ...withCode };
  }
  if (exitCode !== undefined) return { outcome: exitCode === 0 ? "SUCCEEDED" : "FAILED", exitCode };
  if (end?.status === "failed") return { outcome: "FAILED" };
  if (end?.status === "completed") return { outcome: "SUCCEEDED" };
  if (out?.success !== undefined) return { outcome: out.success ? "SUCCEEDED" : "FAILED" };
  return { outcome: "UNKNOWN" };
}

/** A response item's own status (web_search_call, image_generation_call): completed or failed. */
export function itemStatusOutcome(status: unknown): ToolOutcome {
  if (status === "completed") return "SUCCEEDED";
  if (status === "failed") return "FAILED";
  return "UNKNOWN";
}

/**
 * A working directory as the runtime writes it: a path, or (exec records since mid-2026, the
 * runtime's PathUri) a `file:` URI such as `file:///srv/my%20app` or `file:///C:/work`.
 */
export function filePath(value: unknown): string | undefined {
  const raw = str(value);
  if (raw === undefined || raw === "") return undefined;
  if (!raw.startsWith("file:")) return raw;
  try {
    const url = new URL(raw);
    const path = decodeURIComponent(url.pathname);
    const drive = /^\/[A-Za-z]:(?:\/|$)/.test(path) ? path.slice(1) : path;
    return url.host && url.host !== "localhost" ? `//${url.host}${path}` : drive;
  } catch {
    return raw;
  }
}
