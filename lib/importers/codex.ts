/**
 * Codex CLI rollout JSONL (`rollout-*.jsonl` under the sessions folder, one session per file).
 *
 * Mapping:
 * - `session_meta` names the session (its `id`), its cwd and start; `turn_context` moves the cwd.
 * - `response_item` message text items are MESSAGEs (role as recorded); readable reasoning
 *   (summary or content text) is a MESSAGE with role "reasoning".
 * - `function_call` is a TOOL_CALL (toolInput = the parsed `arguments`, body = the `arguments`
 *   string); `custom_tool_call` (apply_patch) a TOOL_CALL whose input and body are its freeform
 *   `input`; `local_shell_call` and `web_search_call` TOOL_CALLs whose input and body are their
 *   `action`. `function_call_output` / `custom_tool_call_output` are TOOL_RESULTs paired by
 *   `call_id`, with an exit code when the output states one.
 * - `event_msg` `exec_command_end` (and `patch_apply_end`, `mcp_tool_call_end`) give the exit code
 *   and cwd of a call; when the rollout has no output item for that call, the event's own output
 *   becomes its TOOL_RESULT (and a command run with no call item gets a TOOL_CALL too).
 * - `compacted` is a SUMMARY (body = `message`) replacing the spans since the last compaction that
 *   are in the file, except messages its `replacement_history` keeps verbatim.
 * - `event_msg` user/agent messages duplicate response items; they are used only for a rollout that
 *   has no message items at all.
 * Every other line is either in one of the documented ignore lists below or reported.
 */
import { Clock, ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import { rawValue } from "./json-scan";
import { readJsonLines, type JsonLine } from "./jsonl";
import type { ImportResult, TranscriptImporter } from "./types";
import { contentId, decodeUtf8, isRecord, looksInjected, parseTimestamp, str, titleFrom, utf8 } from "./text";

/** response_item payload types that hold nothing readable an evidence question could use. */
export const CODEX_IGNORED_ITEM_TYPES: Readonly<Record<string, string>> = {
  ghost_snapshot: "a git snapshot the runtime takes for undo",
  compaction: "the encrypted form of a server-side compaction; its readable summary is the `compacted` line",
  other: "an item the runtime itself could not classify",
};

/** event_msg payload types ignored on purpose, with why. */
export const CODEX_IGNORED_EVENT_TYPES: Readonly<Record<string, string>> = {
  token_count: "token usage and rate limits",
  task_started: "turn lifecycle",
  task_complete: "turn lifecycle (its last message is also a message item)",
  turn_started: "turn lifecycle",
  turn_complete: "turn lifecycle",
  turn_aborted: "turn lifecycle (an interruption)",
  context_compacted: "a compaction notice; the summary is the `compacted` line",
  thread_rolled_back: "an undo notice",
  undo_started: "an undo notice",
  undo_completed: "an undo notice",
  entered_review_mode: "review-mode lifecycle",
  exited_review_mode: "review-mode lifecycle",
  item_started: "item lifecycle; the items are recorded as response items",
  item_completed: "item lifecycle; the items are recorded as response items",
  exec_command_begin: "the start of a command; its end carries the result",
  exec_command_output_delta: "streamed output; the end event carries all of it",
  patch_apply_begin: "the start of a patch; its end carries the result",
  mcp_tool_call_begin: "the start of an MCP call; its end carries the result",
  web_search_begin: "the start of a search; the search call item records it",
  web_search_end: "the end of a search; the search call item records it",
  image_generation_end: "a generated image (binary)",
  view_image_tool_call: "an image attached for the model (binary)",
  agent_message_delta: "streamed text; the message item carries all of it",
  agent_reasoning_delta: "streamed reasoning; the reasoning item carries all of it",
  agent_reasoning_raw_content_delta: "streamed reasoning; the reasoning item carries all of it",
  agent_reasoning_section_break: "reasoning formatting",
  turn_diff: "a diff of the turn's edits, derived from the patches already recorded",
  plan_update: "the agent's to-do list",
  exec_approval_request: "an approval prompt; the command itself is recorded as a call",
  apply_patch_approval_request: "an approval prompt; the patch itself is recorded as a call",
  session_configured: "runtime configuration",
  shutdown_complete: "runtime lifecycle",
  background_event: "runtime notice",
  deprecation_notice: "runtime notice",
  warning: "runtime notice",
  error: "a runtime error talking to the model, not an agent action",
  stream_error: "a runtime error talking to the model, not an agent action",
  guardian_assessment: "a safety review of a proposed action, not the action",
  mcp_startup_update: "runtime lifecycle",
  mcp_startup_complete: "runtime lifecycle",
};

/** Lines of the legacy rollout layout (before rollout lines were typed) that carry no content. */
const LEGACY_STATE_RECORD = "state";

const RESPONSE_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
  ...Object.keys(CODEX_IGNORED_ITEM_TYPES),
]);

const TEXT_ITEMS = new Set(["input_text", "output_text", "text", "summary_text", "reasoning_text"]);
const IMAGE_ITEMS = new Set(["input_image", "output_image", "image"]);

interface ExecOutcome {
  exitCode?: number;
  cwd?: string;
}

type Base = { occurredAt: Date | undefined; sourceLine: number };

class CodexReader {
  readonly collector = new ImportCollector("codex");
  private readonly clock = new Clock(this.collector);
  private draft: SessionDraft | undefined;
  private turnCwd: string | undefined;
  private readonly calls = new Map<string, DraftSpan>();
  private readonly results = new Map<string, DraftSpan>();
  /** Results made from an end event, dropped if the rollout has the real output item after all. */
  private readonly standIns = new Map<string, DraftSpan>();
  private readonly outcomes = new Map<string, ExecOutcome>();
  private readonly hasMessageItems = new Set<SessionDraft>();
  private readonly eventMessages = new Map<SessionDraft, DraftSpan[]>();

  constructor(private readonly fileId: string) {}

  read(lines: JsonLine[]): ImportResult {
    lines.forEach((line, index) => this.line(line, index));
    for (const [draft, spans] of this.eventMessages) if (this.hasMessageItems.has(draft)) for (const s of spans) s.dropped = true;
    return this.collector.result();
  }

  private session(): SessionDraft {
    this.draft ??= this.collector.session(`codex:${this.fileId}`);
    return this.draft;
  }

  private line(line: JsonLine, index: number): void {
    const r = line.value;
    if (r.type === "session_meta") return this.meta(line, isRecord(r.payload) ? r.payload : undefined);
    if (r.payload === undefined) return this.legacy(line, index);
    if (!isRecord(r.payload)) return this.collector.issue(line.line, "payload is not an object; skipped");
    switch (r.type) {
      case "response_item":
        return this.item(line, r.payload, ["payload"]);
      case "event_msg":
        return this.event(line, r.payload);
      case "turn_context":
        this.clock.see(r.timestamp);
        if (typeof r.payload.cwd === "string") {
          this.turnCwd = r.payload.cwd;
          this.session().cwd ??= r.payload.cwd;
        }
        return;
      case "compacted":
        return this.compacted(line, r.payload);
      default:
        this.collector.issue(
          line.line,
          typeof r.type === "string" ? `unknown rollout line type "${r.type}"; skipped` : "rollout line without a type; skipped",
        );
    }
  }

  /** The rollout layout before typed lines: a bare meta object first, then bare response items. */
  private legacy(line: JsonLine, index: number): void {
    const r = line.value;
    if (index === 0 && typeof r.id === "string" && r.type === undefined) return this.meta(line, r);
    if (r.record_type === LEGACY_STATE_RECORD) return;
    if (typeof r.type === "string" && RESPONSE_ITEM_TYPES.has(r.type)) return this.item(line, r, []);
    this.collector.issue(line.line, "line is neither a typed rollout line nor a response item; skipped");
  }

  private meta(line: JsonLine, payload: Record<string, unknown> | undefined): void {
    if (!payload || typeof payload.id !== "string")
      return this.collector.issue(line.line, "session_meta without a string id; skipped");
    this.clock.see(line.value.timestamp ?? payload.timestamp);
    const draft = this.collector.session(payload.id);
    this.draft = draft;
    if (typeof payload.cwd === "string") {
      draft.cwd ??= payload.cwd;
      this.turnCwd ??= payload.cwd;
    }
    draft.startedAt ??= parseTimestamp(payload.timestamp) ?? parseTimestamp(line.value.timestamp);
  }

  private item(line: JsonLine, p: Record<string, unknown>, at: ReadonlyArray<string>): void {
    const type = str(p.type);
    if (type !== undefined && type in CODEX_IGNORED_ITEM_TYPES) return this.clock.see(line.value.timestamp);
    const base: Base = { occurredAt: this.clock.at(line.line, line.value.timestamp), sourceLine: line.line };
    const draft = this.session();
    switch (type) {
      case "message":
        return this.message(line, draft, p, base);
      case "reasoning":
        return this.reasoning(line, draft, p, base);
      case "function_call":
        return this.functionCall(line, draft, p, base);
      case "custom_tool_call": {
        if (typeof p.call_id !== "string" || typeof p.name !== "string" || typeof p.input !== "string") {
          return this.collector.issue(line.line, "custom_tool_call without string call_id, name and input; skipped");
        }
        return this.addCall(draft, p.call_id, {
          ...base,
          kind: "TOOL_CALL",
          toolName: p.name,
          toolInput: p.input,
          body: utf8(p.input),
          ...this.cwdHint(undefined),
        });
      }
      case "local_shell_call":
      case "web_search_call": {
        const action = isRecord(p.action) ? p.action : undefined;
        const callId = str(p.call_id) ?? str(p.id);
        if (!action) return this.collector.issue(line.line, `${type} without an action; skipped`);
        const raw = rawValue(line.bytes, [...at, "action"]);
        const span: DraftSpan = {
          ...base,
          kind: "TOOL_CALL",
          toolName: type === "local_shell_call" ? "local_shell" : "web_search",
          toolInput: action,
          body: raw ? raw.slice() : utf8(JSON.stringify(action)),
          ...this.cwdHint(str(action.working_directory)),
        };
        if (callId) return this.addCall(draft, callId, span);
        draft.add(span);
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output":
        return this.output(line, draft, p, base);
      default:
        this.collector.issue(
          line.line,
          type ? `unknown response item type "${type}"; skipped` : "response item without a type; skipped",
        );
    }
  }

  private message(line: JsonLine, draft: SessionDraft, p: Record<string, unknown>, base: Base): void {
    if (typeof p.role !== "string") return this.collector.issue(line.line, "message without a role; skipped");
    const role = p.role;
    const texts = contentTexts(p.content);
    if (texts === undefined)
      return this.collector.issue(line.line, "message content is neither text nor a list of content items; skipped");
    this.hasMessageItems.add(draft);
    for (const t of texts.unknown) this.collector.issue(line.line, `message content item of unknown type "${t}"; skipped`);
    for (const text of texts.texts) {
      draft.add({ ...base, kind: "MESSAGE", role, body: utf8(text) });
      if (draft.title === undefined && role === "user" && !looksInjected(text)) draft.title = titleFrom(text);
    }
  }

  private reasoning(line: JsonLine, draft: SessionDraft, p: Record<string, unknown>, base: Base): void {
    const summary = contentTexts(p.summary ?? []);
    const content = contentTexts(p.content ?? []);
    const texts = [...(summary?.texts ?? []), ...(content?.texts ?? [])];
    // Reasoning with only encrypted_content has no readable text: nothing to keep.
    for (const text of texts) draft.add({ ...base, kind: "MESSAGE", role: "reasoning", body: utf8(text) });
    if (!summary || !content) this.collector.issue(line.line, "reasoning summary or content is not a list; that part skipped");
  }

  private functionCall(line: JsonLine, draft: SessionDraft, p: Record<string, unknown>, base: Base): void {
    if (typeof p.call_id !== "string" || typeof p.name !== "string" || typeof p.arguments !== "string") {
      return this.collector.issue(line.line, "function_call without string call_id, name and arguments; skipped");
    }
    let input: unknown = p.arguments;
    try {
      input = JSON.parse(p.arguments);
    } catch {
      // Arguments that are not JSON are kept as the string the model produced.
    }
    const workdir = isRecord(input) ? (str(input.workdir) ?? str(input.cwd)) : undefined;
    this.addCall(draft, p.call_id, {
      ...base,
      kind: "TOOL_CALL",
      toolName: p.name,
      toolInput: input,
      body: utf8(p.arguments),
      ...this.cwdHint(workdir),
    });
  }

  private addCall(draft: SessionDraft, callId: string, span: DraftSpan): void {
    span.sourceId = callId;
    this.calls.set(callId, draft.add(span));
    const known = this.outcomes.get(callId);
    if (known?.cwd) span.cwd = known.cwd;
  }

  private output(line: JsonLine, draft: SessionDraft, p: Record<string, unknown>, base: Base): void {
    if (typeof p.call_id !== "string") return this.collector.issue(line.line, `${str(p.type)} without a string call_id; skipped`);
    const out = outputOf(p.output);
    if (out === undefined)
      return this.collector.issue(line.line, `${str(p.type)} output is neither text nor content items; skipped`);
    const call = this.calls.get(p.call_id);
    const known = this.outcomes.get(p.call_id);
    const span = draft.add({
      ...base,
      kind: "TOOL_RESULT",
      body: utf8(out.text),
      sourceId: p.call_id,
      ...(call?.toolName ? { toolName: call.toolName } : {}),
      ...(call?.cwd ? { cwd: call.cwd } : {}),
    });
    const exitCode = known?.exitCode ?? out.exitCode;
    if (exitCode !== undefined) span.exitCode = exitCode;
    this.results.set(p.call_id, span);
    const standIn = this.standIns.get(p.call_id);
    if (standIn) standIn.dropped = true;
  }

  private event(line: JsonLine, p: Record<string, unknown>): void {
    const type = str(p.type);
    switch (type) {
      case "exec_command_end":
      case "patch_apply_end":
      case "mcp_tool_call_end":
        return this.endEvent(line, type, p);
      case "user_message":
      case "agent_message":
      case "agent_reasoning":
      case "agent_reasoning_raw_content":
        return this.eventMessage(line, type, p);
      default:
        this.clock.see(line.value.timestamp);
        if (type !== undefined && type in CODEX_IGNORED_EVENT_TYPES) return;
        this.collector.issue(line.line, type ? `unknown event type "${type}"; skipped` : "event without a type; skipped");
    }
  }

  private eventMessage(line: JsonLine, type: string, p: Record<string, unknown>): void {
    const text = str(p.message) ?? str(p.text);
    if (text === undefined) return this.collector.issue(line.line, `${type} event without text; skipped`);
    const draft = this.session();
    const role = type === "user_message" ? "user" : type === "agent_message" ? "assistant" : "reasoning";
    const span = draft.add({
      kind: "MESSAGE",
      role,
      body: utf8(text),
      occurredAt: this.clock.at(line.line, line.value.timestamp),
      sourceLine: line.line,
    });
    if (draft.title === undefined && role === "user" && !looksInjected(text)) draft.title = titleFrom(text);
    const list = this.eventMessages.get(draft) ?? [];
    list.push(span);
    this.eventMessages.set(draft, list);
  }

  /** The end of a command, patch or MCP call: exit code and cwd for its call and result. */
  private endEvent(line: JsonLine, type: string, p: Record<string, unknown>): void {
    const occurredAt = this.clock.at(line.line, line.value.timestamp);
    if (typeof p.call_id !== "string") return this.collector.issue(line.line, `${type} without a string call_id; skipped`);
    const end = endOutcome(type, p);
    const outcome: ExecOutcome = {
      ...(end.exitCode !== undefined ? { exitCode: end.exitCode } : {}),
      ...(end.cwd ? { cwd: end.cwd } : {}),
    };
    this.outcomes.set(p.call_id, outcome);
    const draft = this.session();
    let call = this.calls.get(p.call_id);
    if (call && outcome.cwd) call.cwd = outcome.cwd;
    const result = this.results.get(p.call_id);
    if (result) {
      if (outcome.exitCode !== undefined) result.exitCode = outcome.exitCode;
      if (outcome.cwd) result.cwd = outcome.cwd;
      return;
    }
    if (!call && type === "exec_command_end" && Array.isArray(p.command)) {
      // A command the user ran directly, with no call item: still an action to keep.
      const raw = rawValue(line.bytes, ["payload", "command"]);
      call = {
        kind: "TOOL_CALL",
        toolName: "shell",
        toolInput: { command: p.command, ...(outcome.cwd ? { workdir: outcome.cwd } : {}) },
        body: raw ? raw.slice() : utf8(JSON.stringify(p.command)),
        occurredAt,
        sourceLine: line.line,
        ...(outcome.cwd ? { cwd: outcome.cwd } : {}),
      };
      this.addCall(draft, p.call_id, call);
    }
    const standIn = draft.add({
      kind: "TOOL_RESULT",
      body: utf8(end.output),
      occurredAt,
      sourceLine: line.line,
      sourceId: p.call_id,
      ...(outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {}),
      ...(call?.toolName ? { toolName: call.toolName } : {}),
      ...(outcome.cwd ? { cwd: outcome.cwd } : {}),
    });
    this.standIns.set(p.call_id, standIn);
  }

  private compacted(line: JsonLine, p: Record<string, unknown>): void {
    const occurredAt = this.clock.at(line.line, line.value.timestamp);
    if (typeof p.message !== "string") return this.collector.issue(line.line, "compacted line without a message; skipped");
    const draft = this.session();
    const kept = keptTexts(p.replacement_history);
    const replaced = draft.sinceLastCompaction().filter((s) => !(s.kind === "MESSAGE" && kept.has(decodeUtf8(s.body) ?? "")));
    draft.addSummary({ occurredAt, sourceLine: line.line, body: utf8(p.message) }, replaced);
  }

  private cwdHint(explicit: string | undefined): { cwd?: string } {
    const cwd = explicit ?? this.turnCwd ?? this.draft?.cwd;
    return cwd ? { cwd } : {};
  }
}

/** Texts of a content list (or a plain string); undefined when it is neither. */
function contentTexts(content: unknown): { texts: string[]; unknown: string[] } | undefined {
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
    else if (!IMAGE_ITEMS.has(type)) unknown.push(type);
  }
  return { texts, unknown };
}

/**
 * A tool output's text and any exit code it states. Outputs are a string (older runtimes wrap a
 * shell's in JSON `{output, metadata: {exit_code}}`; newer ones open with "Exit code: N"), a list
 * of content items, or `{content, success}`.
 */
function outputOf(output: unknown): { text: string; exitCode?: number } | undefined {
  if (typeof output === "string") return { text: output, ...withExit(statedExitCode(output)) };
  if (Array.isArray(output)) {
    const texts = contentTexts(output);
    return texts ? { text: texts.texts.join("\n") } : undefined;
  }
  if (isRecord(output) && typeof output.content === "string") {
    const stated = statedExitCode(output.content);
    const exitCode = stated ?? (typeof output.success === "boolean" ? (output.success ? 0 : 1) : undefined);
    return { text: output.content, ...withExit(exitCode) };
  }
  return undefined;
}

function withExit(exitCode: number | undefined): { exitCode?: number } {
  return exitCode === undefined ? {} : { exitCode };
}

function statedExitCode(text: string): number | undefined {
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && isRecord(parsed.metadata) && typeof parsed.metadata.exit_code === "number")
        return parsed.metadata.exit_code;
    } catch {
      // Not the JSON wrapper: read it as text.
    }
  }
  const match = /^(?:Exit code:|Process exited with code) (-?\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

function endOutcome(type: string, p: Record<string, unknown>): { exitCode?: number; cwd?: string; output: string } {
  if (type === "exec_command_end") {
    const output = str(p.aggregated_output) ?? [str(p.stdout), str(p.stderr)].filter(Boolean).join("");
    return {
      output,
      ...withExit(typeof p.exit_code === "number" ? p.exit_code : undefined),
      ...(str(p.cwd) ? { cwd: str(p.cwd) } : {}),
    };
  }
  if (type === "patch_apply_end") {
    const output = [str(p.stdout), str(p.stderr)].filter(Boolean).join("");
    return { output, ...withExit(typeof p.success === "boolean" ? (p.success ? 0 : 1) : undefined) };
  }
  // mcp_tool_call_end: result is {Ok: {content, isError}} or {Err: message}.
  const result = isRecord(p.result) ? p.result : {};
  if (typeof result.Err === "string") return { output: result.Err, exitCode: 1 };
  const ok = isRecord(result.Ok) ? result.Ok : {};
  const texts = contentTexts(ok.content)?.texts ?? [];
  return { output: texts.join("\n"), exitCode: ok.isError === true ? 1 : 0 };
}

/** Message texts a compaction's replacement history keeps verbatim (those were not lost). */
function keptTexts(history: unknown): Set<string> {
  const kept = new Set<string>();
  if (!Array.isArray(history)) return kept;
  for (const item of history) {
    if (isRecord(item) && item.type === "message") for (const t of contentTexts(item.content)?.texts ?? []) kept.add(t);
  }
  return kept;
}

export function parseCodex(bytes: Uint8Array): ImportResult {
  const reader = new CodexReader(contentId(bytes));
  return reader.read(readJsonLines(bytes, reader.collector));
}

export const codexImporter: TranscriptImporter = {
  format: "codex",
  detect(head) {
    if (/"type"\s*:\s*"session_meta"/.test(head)) return 0.95;
    if (/"type"\s*:\s*"(response_item|event_msg|turn_context|compacted)"/.test(head) && /"payload"\s*:/.test(head)) return 0.9;
    // The legacy layout opens with a bare meta object: id, timestamp, instructions.
    return /^\s*\{\s*"id"\s*:\s*"[^"]*"\s*,\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"instructions"\s*:/.test(head) ? 0.8 : 0;
  },
  parse: parseCodex,
};
