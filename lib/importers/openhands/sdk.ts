/**
 * OpenHands agent-SDK events (openhands/sdk/event): each event names its class in `kind`, with a
 * string `id`, `timestamp` and `source`. The SDK stores a conversation as one event per file
 * (`events/event-00000-<id>.json`); exports and evaluation outputs hold them in arrays.
 *
 * - `SystemPromptEvent` is a "system" MESSAGE; `MessageEvent` a MESSAGE with its `llm_message`
 *   role (its reasoning, when readable, a "reasoning" MESSAGE before it: `reasoning_content`, else
 *   the text of Anthropic `thinking_blocks`, else the Responses reasoning item's `summary` and
 *   `content`; redacted and encrypted reasoning is not text and is left in the record).
 * - `ActionEvent`: its reasoning and `thought` are "reasoning" / "assistant" MESSAGEs; the call is
 *   a TOOL_CALL (toolName = `tool_name`, toolInput = `action`, body = the `action` bytes, or the
 *   model's `tool_call.arguments` when the action could not be built). The `finish` and `think`
 *   tools are the agent's closing "assistant" and "reasoning" MESSAGEs, as in the classic stream.
 * - `ObservationEvent`, `UserRejectObservation` and `AgentErrorEvent` are TOOL_RESULTs paired by
 *   `action_id` (else `tool_call_id`); an observation's body is its content followed by the
 *   `extended_content` the agent context appended to it. Outcome: a rejection DECLINED (by the user
 *   or a hook); an agent error FAILED, except when the tool never ran: the answer to an action the
 *   SDK could not build (`action` absent: a tool that does not exist, arguments that do not
 *   validate) and "Tool call cancelled by interrupt." (a parallel call skipped before it began) are
 *   NOT_RUN, and "Tool call interrupted before completion. ..." (the stand-in the SDK writes for a
 *   call still in flight when the conversation was paused) is UNKNOWN; an observation that timed
 *   out (`timeout`, or exit code -1: still running) UNKNOWN, else by `is_error` (or the older
 *   `error`) and the exit code (`exit_code` or `metadata.exit_code`).
 * - `Condensation` is a SUMMARY (its `summary`) replacing the `forgotten_event_ids` present; a
 *   stored `CondensationSummaryEvent` is the same summary when its condensation is in the file,
 *   else a SUMMARY of its own.
 * - `ConversationErrorEvent` (and the agent server's `ServerErrorEvent`, same fields) is a "system"
 *   MESSAGE; `HookExecutionEvent` a TOOL_CALL of the hook's command (with its output, reason, error
 *   and the `additional_context` it injected as TOOL_RESULT); `ACPToolCallEvent` a TOOL_CALL of an
 *   ACP server's tool, with its `raw_output` (else its `content` blocks) as TOOL_RESULT and its
 *   `status` as outcome. The SDK writes one early event per call and one when it turns `completed`
 *   or `failed`: a later event of the same `tool_call_id` updates the call (its input, when the
 *   early one had none yet, and its outcome); one after the call ended is a new call (ACP servers
 *   reuse ids across sessions).
 * - An observation whose action is not in the file makes the session incomplete.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { DraftSpan } from "../shared/builder";
import { rawValue } from "../shared/json-scan";
import { forgottenIds } from "./classic";
import { type EventRecord, idOf, numberOf, SpansById, type StreamContext, textOfParts } from "./events";
import { acpOutput, observationOutcome, parseOr, reasoningOf } from "./sdk-values";
import { ENDS_BEFORE_SESSION } from "../shared/partial-end";
import { isRecord, looksInjected, str, titleFrom, utf8 } from "../shared/text";

/**
 * SDK event kinds ignored on purpose: state, lifecycle and transport records, not evidence. Checked
 * against the SDK's event classes (openhands-sdk/openhands/sdk/event/): none runs a tool or stops a
 * process; a tool call an interrupt cut short has its own AgentErrorEvent, which is read.
 */
export const OPENHANDS_SDK_IGNORED_KINDS: Readonly<Record<string, string>> = {
  ConversationStateUpdateEvent: "the conversation's state (execution status, statistics, settings; conversation_state.py)",
  CondensationRequest: "a request to condense (condenser.py); the Condensation records what was forgotten",
  PauseEvent: "the user pausing the run loop (user_action.py: 'agent execution paused'), lifecycle",
  InterruptEvent: "the user interrupting the run loop (user_action.py: 'an in-flight LLM call was cancelled'), lifecycle",
  TokenEvent: "token ids of an LLM call (llm_convertible/token.py)",
  StreamingDeltaEvent: "streamed text (streaming_delta.py); the MessageEvent or ActionEvent carries all of it",
  LLMCompletionLogEvent: "a raw LLM request/response log; what it produced is recorded as events",
};

const FINISH_TOOLS = new Set(["finish", "FinishTool"]);
const THINK_TOOLS = new Set(["think", "ThinkTool"]);
const OBSERVATION_KINDS = new Set(["ObservationEvent", "UserRejectObservation", "AgentErrorEvent"]);
const ACP_TERMINAL = new Set(["completed", "failed"]);
/** AgentErrorEvent texts the SDK writes for calls that never started, or may still have been running. */
const CANCELLED_BEFORE_START = "Tool call cancelled by interrupt.";
const INTERRUPTED_IN_FLIGHT = "Tool call interrupted before completion.";

export class SdkReader {
  private readonly byId = new SpansById();
  private readonly callsByToolCallId = new Map<string, DraftSpan>();
  /** ACP calls by tool_call_id, while they have not ended. */
  private readonly acpCalls = new Map<string, DraftSpan>();
  /** Calls whose ActionEvent had no action: the SDK could not build it, so the tool never ran. */
  private readonly unbuilt = new Set<DraftSpan>();
  private readonly seen = new Set<string>();
  private readonly summarised = new Set<string>();
  private workingDir: string | undefined;

  /** The conversation's last execution status the stream records, and where. */
  private lastStatus: { status: string; position: number } | undefined;

  constructor(private readonly ctx: StreamContext) {}

  /**
   * After the stream's last event (at `lastPosition`): a conversation whose last recorded execution
   * status is "running" (openhands-sdk conversation/state.py ConversationExecutionStatus; it stops
   * idle, paused, waiting for confirmation, finished, in error or stuck) ends after the file did.
   */
  finish(lastPosition: number): void {
    if (this.lastStatus?.status !== "running") return;
    this.ctx.collector.incomplete(
      lastPosition + 1,
      `${ENDS_BEFORE_SESSION}: the conversation's last execution status (at ${this.lastStatus.position}) is "running", and no status it stops in follows (cut, or still being written)`,
      this.ctx.draft,
    );
  }

  event(e: EventRecord, kind: string): void {
    const id = idOf(e.value.id);
    if (id !== undefined) this.seen.add(id);
    if (kind === "ConversationStateUpdateEvent") this.noteStatus(e);
    if (kind in OPENHANDS_SDK_IGNORED_KINDS) {
      this.ctx.clock.see(e.value.timestamp);
      return this.ctx.collector.ignore(e.position, kind);
    }
    switch (kind) {
      case "SystemPromptEvent":
        return this.systemPrompt(e, id);
      case "MessageEvent":
        return this.messageEvent(e, id);
      case "ActionEvent":
        return this.action(e, id);
      case "Condensation":
        return this.condensation(e, id);
      case "CondensationSummaryEvent":
        return this.summaryEvent(e, id);
      case "ConversationErrorEvent":
      case "ServerErrorEvent":
        return this.conversationError(e, id, kind);
      case "HookExecutionEvent":
        return this.hook(e, id);
      case "ACPToolCallEvent":
        return this.acp(e, id);
    }
    if (OBSERVATION_KINDS.has(kind)) return this.observation(e, id, kind);
    this.ctx.collector.skip(e.position, `unknown agent-SDK event kind "${kind}"; skipped`, this.ctx.draft);
  }

  /** A state update of `execution_status`, or a full state holding it. */
  private noteStatus(e: EventRecord): void {
    const { key, value } = e.value;
    const status =
      key === "execution_status" ? value : key === "full_state" && isRecord(value) ? value.execution_status : undefined;
    if (typeof status === "string") this.lastStatus = { status, position: e.position };
  }
  private skip(e: EventRecord, reason: string): void {
    this.ctx.collector.skip(e.position, `${reason}; skipped`, this.ctx.draft);
  }

  private base(e: EventRecord, id: string | undefined) {
    return {
      occurredAt: this.ctx.clock.at(e.position, e.value.timestamp),
      sourceLine: e.position,
      ...(id !== undefined ? { sourceId: id } : {}),
    };
  }

  private message(e: EventRecord, id: string | undefined, role: string, text: string): DraftSpan {
    return this.byId.add(id, this.ctx.draft.add({ ...this.base(e, id), kind: "MESSAGE", role, body: utf8(text) }));
  }

  private systemPrompt(e: EventRecord, id: string | undefined): void {
    const prompt = e.value.system_prompt;
    const text = isRecord(prompt) ? str(prompt.text) : str(prompt);
    if (text === undefined) return this.skip(e, "SystemPromptEvent without a system_prompt text");
    const dynamic = isRecord(e.value.dynamic_context) ? str(e.value.dynamic_context.text) : undefined;
    this.message(e, id, "system", dynamic ? `${text}\n\n${dynamic}` : text);
  }

  private messageEvent(e: EventRecord, id: string | undefined): void {
    const msg = e.value.llm_message;
    if (!isRecord(msg)) return this.skip(e, "MessageEvent without an llm_message object");
    const reasoning = reasoningOf(msg);
    if (reasoning) this.message(e, id, "reasoning", reasoning);
    const extended = textOfParts(e.value.extended_content);
    const own = textOfParts(msg.content);
    if (own === undefined && msg.content !== undefined && !Array.isArray(msg.content)) {
      return this.skip(e, "MessageEvent whose content is neither text nor a list of parts");
    }
    const text = [own, extended].filter((t) => t !== undefined).join("\n\n");
    const role = str(msg.role) ?? (e.value.source === "user" ? "user" : "assistant");
    if (text === "" && reasoning) return;
    // A message without text (an image only) still keeps its parts, as the file has them.
    const body = text !== "" ? text : new TextDecoder().decode(rawValue(e.bytes, ["llm_message", "content"]) ?? new Uint8Array());
    this.message(e, id, role, body);
    const { draft } = this.ctx;
    if (draft.title === undefined && role === "user" && own && !looksInjected(own)) draft.title = titleFrom(own);
  }

  private action(e: EventRecord, id: string | undefined): void {
    const v = e.value;
    const toolName = str(v.tool_name);
    const toolCallId = str(v.tool_call_id);
    if (toolName === undefined || toolCallId === undefined) {
      return this.skip(e, "ActionEvent without string tool_name and tool_call_id");
    }
    if (v.action !== undefined && v.action !== null && !isRecord(v.action)) {
      return this.skip(e, "ActionEvent whose action is not an object");
    }
    const reasoning = reasoningOf(v);
    if (reasoning) this.message(e, id, "reasoning", reasoning);
    const thought = textOfParts(v.thought);
    if (thought) this.message(e, id, "assistant", thought);
    const action = isRecord(v.action) ? v.action : undefined;
    if (action && FINISH_TOOLS.has(toolName)) {
      this.message(e, id, "assistant", str(action.message) ?? str(action.final_thought) ?? "");
      return;
    }
    if (action && THINK_TOOLS.has(toolName)) {
      this.message(e, id, "reasoning", str(action.thought) ?? "");
      return;
    }
    const toolCall = isRecord(v.tool_call) ? v.tool_call : {};
    const args = str(toolCall.arguments);
    const raw = action ? rawValue(e.bytes, ["action"]) : undefined;
    if (!action && args === undefined) return this.skip(e, "ActionEvent with neither an action nor tool_call arguments");
    const call = this.ctx.draft.add({
      ...this.base(e, id),
      kind: "TOOL_CALL",
      toolName,
      toolInput: action ?? parseOr(args!),
      body: raw ? raw.slice() : utf8(action ? JSON.stringify(action) : args!),
      ...(this.workingDir ? { cwd: this.workingDir } : {}),
    });
    this.byId.add(id, call);
    this.callsByToolCallId.set(toolCallId, call);
    if (!action) this.unbuilt.add(call);
  }

  private observation(e: EventRecord, id: string | undefined, kind: string): void {
    const v = e.value;
    const actionId = idOf(v.action_id);
    const toolCallId = str(v.tool_call_id);
    const call =
      (actionId !== undefined ? this.byId.get(actionId).find((s) => s.kind === "TOOL_CALL") : undefined) ??
      (toolCallId !== undefined ? this.callsByToolCallId.get(toolCallId) : undefined);
    let body: string;
    let outcome: ToolOutcome;
    let exitCode: number | undefined;
    if (kind === "UserRejectObservation") {
      body = str(v.rejection_reason) ?? "";
      outcome = "DECLINED";
    } else if (kind === "AgentErrorEvent") {
      if (typeof v.error !== "string") return this.skip(e, "AgentErrorEvent without an error text");
      body = v.error;
      outcome =
        (call && this.unbuilt.has(call)) || body === CANCELLED_BEFORE_START
          ? "NOT_RUN"
          : body.startsWith(INTERRUPTED_IN_FLIGHT)
            ? "UNKNOWN"
            : "FAILED";
    } else {
      const obs = v.observation;
      if (!isRecord(obs)) return this.skip(e, "ObservationEvent without an observation object");
      const metadata = isRecord(obs.metadata) ? obs.metadata : {};
      exitCode = numberOf(obs.exit_code) ?? numberOf(metadata.exit_code);
      const workingDir = str(metadata.working_dir);
      if (workingDir) {
        this.workingDir = workingDir;
        this.ctx.draft.cwd ??= workingDir;
      }
      body =
        textOfParts(obs.content) ??
        str(obs.output) ??
        new TextDecoder().decode(rawValue(e.bytes, ["observation"]) ?? new Uint8Array());
      // Text the agent context appended to the result (path-scoped rules the touched file triggered).
      const extended = textOfParts(v.extended_content);
      if (extended) body = `${body}\n\n${extended}`;
      outcome = observationOutcome(obs, exitCode);
    }
    this.byId.add(
      id,
      this.ctx.draft.add({
        ...this.base(e, id),
        // The call's id, so the result carries the call's outcome (its own id stays in byId).
        ...(call?.sourceId !== undefined ? { sourceId: call.sourceId } : {}),
        kind: "TOOL_RESULT",
        body: utf8(body),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(call?.toolName ? { toolName: call.toolName } : str(v.tool_name) ? { toolName: str(v.tool_name) } : {}),
        ...(this.workingDir ? { cwd: this.workingDir } : {}),
      }),
    );
    if (actionId !== undefined && !this.seen.has(actionId)) {
      this.ctx.collector.skip(
        e.position,
        `${kind} of action ${actionId}, which is not in the file; the session is incomplete`,
        this.ctx.draft,
      );
    }
    if (!call || call.outcome === "DECLINED") return;
    call.outcome = outcome;
    if (exitCode !== undefined && exitCode >= 0) call.exitCode = exitCode;
  }

  private condensation(e: EventRecord, id: string | undefined): void {
    const v = e.value;
    if (v.forgotten_event_ids !== undefined && !Array.isArray(v.forgotten_event_ids)) {
      return this.skip(e, "Condensation whose forgotten_event_ids is not a list");
    }
    const summary = str(v.summary);
    if (summary !== undefined && id !== undefined) this.summarised.add(`${id}-summary`);
    const replaced = this.byId.all(forgottenIds(v));
    this.byId.add(id, this.ctx.draft.addSummary({ ...this.base(e, id), body: utf8(summary ?? "") }, replaced));
  }

  private summaryEvent(e: EventRecord, id: string | undefined): void {
    const summary = str(e.value.summary);
    if (summary === undefined) return this.skip(e, "CondensationSummaryEvent without a summary text");
    if (id !== undefined && this.summarised.has(id)) {
      // Its Condensation already holds this summary and what it replaced.
      this.ctx.clock.see(e.value.timestamp);
      return this.ctx.collector.use(e.position);
    }
    this.byId.add(id, this.ctx.draft.addSummary({ ...this.base(e, id), body: utf8(summary) }, []));
  }

  private conversationError(e: EventRecord, id: string | undefined, kind: string): void {
    const code = str(e.value.code) ?? "error";
    const detail = str(e.value.detail);
    if (detail === undefined) return this.skip(e, `${kind} without a detail text`);
    this.message(e, id, "system", `${code}: ${detail}`);
  }

  private hook(e: EventRecord, id: string | undefined): void {
    const v = e.value;
    const command = str(v.hook_command);
    if (command === undefined) return this.skip(e, "HookExecutionEvent without a hook_command");
    const exitCode = numberOf(v.exit_code);
    const outcome: ToolOutcome =
      v.success === true || v.blocked === true ? "SUCCEEDED" : v.success === false ? "FAILED" : "UNKNOWN";
    const hookType = str(v.hook_event_type) ?? "hook";
    this.byId.add(
      id,
      this.ctx.draft.add({
        ...this.base(e, id),
        kind: "TOOL_CALL",
        toolName: `${hookType} hook`,
        toolInput: { command, ...(str(v.tool_name) ? { tool_name: str(v.tool_name) } : {}) },
        body: utf8(command),
        outcome,
        ...(exitCode !== undefined ? { exitCode } : {}),
      }),
    );
    const output = [str(v.stdout), str(v.stderr), str(v.reason), str(v.error), str(v.additional_context)]
      .filter((t) => t)
      .join("\n");
    if (output === "") return;
    this.ctx.draft.add({
      ...this.base(e, id),
      kind: "TOOL_RESULT",
      toolName: `${hookType} hook`,
      body: utf8(output),
      ...(exitCode !== undefined ? { exitCode } : {}),
    });
  }

  private acp(e: EventRecord, id: string | undefined): void {
    const v = e.value;
    const toolCallId = str(v.tool_call_id);
    const title = str(v.title);
    if (toolCallId === undefined || title === undefined) return this.skip(e, "ACPToolCallEvent without tool_call_id and title");
    const status = str(v.status);
    const outcome: ToolOutcome =
      v.is_error === true || status === "failed" ? "FAILED" : status === "completed" ? "SUCCEEDED" : "UNKNOWN";
    const hasInput = v.raw_input !== undefined && v.raw_input !== null;
    const rawInput = hasInput ? rawValue(e.bytes, ["raw_input"]) : undefined;
    const toolName = str(v.tool_kind) ? `${title} (${str(v.tool_kind)})` : title;
    let call = this.acpCalls.get(toolCallId);
    if (call) {
      // A later event of the same call: its status, its input if the early event had none yet,
      // and its output if it now has one.
      call.outcome = outcome;
      if (hasInput && call.toolInput === undefined) {
        call.toolInput = v.raw_input;
        call.toolName = toolName;
        call.body = rawInput ? rawInput.slice() : utf8(JSON.stringify(v.raw_input));
      }
      this.ctx.collector.use(e.position);
    } else {
      call = this.ctx.draft.add({
        ...this.base(e, id),
        kind: "TOOL_CALL",
        toolName,
        ...(hasInput ? { toolInput: v.raw_input } : {}),
        body: rawInput ? rawInput.slice() : hasInput ? utf8(JSON.stringify(v.raw_input)) : utf8(title),
        outcome,
      });
      this.byId.add(id, call);
    }
    if (status !== undefined && ACP_TERMINAL.has(status)) this.acpCalls.delete(toolCallId);
    else this.acpCalls.set(toolCallId, call);
    const output = acpOutput(e, v);
    if (output === undefined) return;
    this.ctx.draft.add({
      ...this.base(e, id),
      ...(call.sourceId !== undefined ? { sourceId: call.sourceId } : {}),
      kind: "TOOL_RESULT",
      toolName: call.toolName!,
      body: output,
    });
  }
}
