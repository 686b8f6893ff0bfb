/**
 * OpenHands' classic event stream (openhands/events/serialization): every event is an action
 * (`action`, `args`) or an observation (`observation`, `content`, `extras`, `cause` = the id of
 * the action it answers), with an integer `id`, `timestamp` and `source`.
 *
 * - `message` actions are MESSAGEs (role "user" from the user, "system" from the environment,
 *   else "assistant"); `system` is a "system" MESSAGE, `think` a "reasoning" MESSAGE, `finish`
 *   the agent's closing "assistant" MESSAGE, `reject` (the agent refusing the task) an "assistant"
 *   MESSAGE of its thought and `outputs.reason`. A `loop_detection` observation (the controller
 *   telling the user it stopped a loop) is a "system" MESSAGE.
 * - Every other action is a TOOL_CALL: toolName = the action type (`run`, `edit`, `write`, ...;
 *   the MCP tool's name for MCP calls), toolInput = `args`, body = the `args` bytes, cwd = the
 *   working directory the last command reported.
 * - Observations are TOOL_RESULTs paired with their action by `cause`; exit code from
 *   `extras.metadata.exit_code` or the legacy `extras.exit_code`. The call's outcome: commands by
 *   exit code (-1, a command still running when the runtime stopped waiting, is UNKNOWN; input sent
 *   to it later, `is_input` or an empty command that waits, continues it, and the exit code that
 *   finally ends it is the command's outcome); `error`
 *   FAILED, except the controller's "The action has not been executed" answer to the action it was
 *   waiting on when the user pressed Stop or the runtime failed (`error_id`
 *   `AGENT_ERROR$ERROR_ACTION_NOT_EXECUTED_*`), which is UNKNOWN: it is written for whatever action
 *   had no observation yet, including one the runtime had already started; `user_rejected`
 *   DECLINED; `edit` and `read` results of the file editor (`impl_source` `oh_aci`) FAILED when
 *   their content is the editor's `ERROR:` report (the runtime returns those as edit/read
 *   observations, not as `error`), else SUCCEEDED; write / download / task_tracking / success /
 *   delegate results SUCCEEDED (the runtime reports their failures as `error`); browsing by its
 *   `error` flag; MCP by the result's `isError`; an IPython cell UNKNOWN (the runtime has no exit
 *   code for it and calls every cell successful). An action whose `confirmation_state` is `rejected`
 *   is DECLINED, one still `awaiting_confirmation` NOT_RUN (the runtime answers it with a null
 *   observation; once the user decides, the controller records the action again under a new id).
 * - A `recall` observation that injected text (repository or conversation instructions,
 *   microagent knowledge) is a "system" MESSAGE of that text.
 * - Condensation: a `condensation` action (or a `condense` / `agent_condensation` observation not
 *   caused by one) is a SUMMARY replacing the forgotten events (`forgotten_event_ids`, or the
 *   `forgotten_events_start_id`..`end_id` range) present in the file.
 * - An observation whose `cause` names an action the file does not hold makes the session
 *   incomplete: that action's record is missing.
 * - Flat events (the resolver's output: no id, source, cause or timestamp; an action's `args` and
 *   an observation's `extras` spread beside `action` / `observation`) are read the same way; a
 *   call's body is then the whole event, an observation answers the call just before it that has no
 *   result yet, and a message repeating the line's instruction is the user's.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { DraftSpan } from "../shared/builder";
import { rawValue } from "../shared/json-scan";
import { ENDS_BEFORE_SESSION } from "../shared/partial-end";
import { type EventRecord, idOf, messageText, numberOf, SpansById, type StreamContext } from "./events";
import { isRecord, looksInjected, str, titleFrom, utf8 } from "../shared/text";

/**
 * Actions ignored on purpose: runtime bookkeeping, not something the agent did or said. Checked
 * against OpenHands' event classes (openhands/events/action/agent.py, action/empty.py and the
 * controller that emits them): none runs a command, edits a file or reaches the network.
 */
export const OPENHANDS_IGNORED_ACTIONS: Readonly<Record<string, string>> = {
  change_agent_state:
    "the controller's state machine (ChangeAgentStateAction: 'fake action, just to notify the client that a task state has changed')",
  null: "a placeholder the runtime emits when there is nothing to do (NullAction, action/empty.py)",
  recall:
    "the runtime looking up knowledge for the prompt (RecallAction); its query repeats the user's message, recorded as that message",
  condensation_request: "a request to condense (CondensationRequestAction); the condensation itself is recorded",
  loop_recovery:
    "the user's pick from the CLI's loop-recovery menu (LoopRecoveryAction: prompt again, retry or stop): controller lifecycle, not a tool",
};

/** Observations ignored on purpose (openhands/events/observation/agent.py, observation/empty.py). */
export const OPENHANDS_IGNORED_OBSERVATIONS: Readonly<Record<string, string>> = {
  agent_state_changed:
    "the controller's state machine (AgentStateChangedObservation); its last state still says whether the run ended (ClassicReader.finish)",
  null: "a placeholder the runtime emits when there is nothing to report (NullObservation; also its answer to an action awaiting confirmation)",
  recall:
    "only a lookup that injected no text (RecallObservation with no instructions or microagent knowledge); one that did is a system MESSAGE",
};

const CONDENSATION_OBSERVATIONS = new Set(["condense", "agent_condensation", "condensed"]);
const MCP_ACTIONS = new Set(["mcp", "call_tool_mcp"]);
/** Observations the runtime only writes when the operation worked (failures arrive as `error`). */
const SUCCESS_OBSERVATIONS = new Set(["read", "write", "edit", "download", "task_tracking", "success", "delegate"]);
/** The file editor's failure report, returned as the content of an edit or read observation. */
const EDITOR_ERROR = "ERROR:\n";
/** Keys of an event itself, never of its args or extras. */
const ENVELOPE = new Set(["id", "timestamp", "source", "message", "cause", "timeout", "llm_metrics", "tool_call_metadata"]);

/**
 * A flat event's args or extras: its fields but the envelope, `kind` (action or observation) and,
 * for an observation, its `content`; undefined when it has none (then it simply has no args).
 */
function flatFields(v: Record<string, unknown>, kind: "action" | "observation"): Record<string, unknown> | undefined {
  const fields = Object.fromEntries(
    Object.entries(v).filter(([k]) => !ENVELOPE.has(k) && k !== kind && (kind === "action" || k !== "content")),
  );
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * Agent states (openhands/core/schema/agent.py `AgentState`) the controller passes through while a
 * run goes on: a stream whose last state change is one of them ends before its run did. A run that
 * stops (finished, stopped, error, rejected, paused, awaiting the user's input or confirmation)
 * records that state last.
 */
const STATES_IN_PROGRESS = new Set(["loading", "init", "running", "user_confirmed", "user_rejected", "rate_limited"]);

/** The controller's stand-in observation for an action it was waiting on when the run stopped. */
const NOT_EXECUTED_ERROR_ID = /^AGENT_ERROR\$ERROR_ACTION_NOT_EXECUTED_/;

export class ClassicReader {
  private readonly byId = new SpansById();
  private readonly condensationActions = new Set<string>();
  /** Ids of every event read so far, spans or not (an observation's cause must be among them). */
  private readonly seen = new Set<string>();
  private workingDir: string | undefined;
  /** The last call of a flat event, until an observation answers it. */
  private unanswered: DraftSpan | undefined;
  /** The command still running (its last observation's exit code was -1), which input continues. */
  private running: DraftSpan | undefined;
  /** Inputs sent to a running command (and empty commands that wait on it), by the call they continue. */
  private readonly continues = new Map<DraftSpan, DraftSpan>();

  /** The last agent state the stream records, and where. */
  private lastState: { state: string; position: number } | undefined;

  constructor(private readonly ctx: StreamContext) {}

  /** After the stream's last event (at `lastPosition`): a run still in progress there is marked. */
  finish(lastPosition: number): void {
    if (this.lastState === undefined || !STATES_IN_PROGRESS.has(this.lastState.state)) return;
    const { state, position } = this.lastState;
    this.ctx.collector.incomplete(
      lastPosition + 1,
      `${ENDS_BEFORE_SESSION}: the run's last state (at ${position}) is "${state}", and no state it stops in follows (cut, or still being written)`,
      this.ctx.draft,
    );
  }

  event(e: EventRecord): void {
    const v = e.value;
    const id = idOf(v.id);
    if (id !== undefined) this.seen.add(id);
    if (typeof v.action === "string") return this.action(e, v.action, id);
    if (typeof v.observation === "string") return this.observation(e, v.observation, id);
    this.ctx.collector.skip(e.position, "event with neither an action nor an observation; skipped", this.ctx.draft);
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

  private action(e: EventRecord, action: string, id: string | undefined): void {
    const { collector, draft, clock } = this.ctx;
    const v = e.value;
    if (action in OPENHANDS_IGNORED_ACTIONS) {
      clock.see(v.timestamp);
      return collector.ignore(e.position, `action:${action}`);
    }
    if (v.args !== undefined && !isRecord(v.args)) {
      return collector.skip(e.position, `${action} action whose args are not an object; skipped`, draft);
    }
    const args = isRecord(v.args) ? v.args : (flatFields(v, "action") ?? {});
    const message = str(v.message);
    switch (action) {
      case "message": {
        const text = str(args.content) ?? message ?? "";
        const role = isUserMessage(v, this.ctx.instruction) ? "user" : v.source === "environment" ? "system" : "assistant";
        this.message(e, id, role, text);
        if (draft.title === undefined && role === "user" && !looksInjected(text)) draft.title = titleFrom(text);
        return;
      }
      case "system":
        this.message(e, id, "system", str(args.content) ?? message ?? "");
        return;
      case "think":
        this.message(e, id, "reasoning", str(args.thought) ?? message ?? "");
        return;
      case "finish":
        this.message(e, id, "assistant", str(args.final_thought) ?? str(args.thought) ?? message ?? "");
        return;
      case "reject": {
        // The agent refusing the task (AgentRejectAction): what it said, not a tool it ran.
        const outputs = isRecord(args.outputs) ? args.outputs : {};
        const parts = [str(args.thought), str(outputs.reason)].filter((t): t is string => t !== undefined && t !== "");
        this.message(e, id, "assistant", parts.length > 0 ? parts.join("\n\n") : (message ?? ""));
        return;
      }
      case "condensation":
        if (id !== undefined) this.condensationActions.add(id);
        this.condense(e, id, str(args.summary) ?? "", args);
        return;
      default:
        return this.call(e, action, id, args);
    }
  }

  private call(e: EventRecord, action: string, id: string | undefined, args: Record<string, unknown>): void {
    const flat = !isRecord(e.value.args);
    if (flat && flatFields(e.value, "action") === undefined) {
      return this.ctx.collector.skip(e.position, `${action} action without args; skipped`, this.ctx.draft);
    }
    const raw = flat ? e.bytes : rawValue(e.bytes, ["args"]);
    const toolName = MCP_ACTIONS.has(action) ? (str(args.name) ?? action) : action;
    // `is_confirmed` is the field's name in older releases.
    const confirmation = str(args.confirmation_state) ?? str(args.is_confirmed);
    const outcome: ToolOutcome | undefined =
      confirmation === "rejected" ? "DECLINED" : confirmation === "awaiting_confirmation" ? "NOT_RUN" : undefined;
    const call = this.byId.add(
      id,
      this.ctx.draft.add({
        ...this.base(e, id),
        kind: "TOOL_CALL",
        toolName,
        toolInput: args,
        body: raw ? raw.slice() : utf8(JSON.stringify(args)),
        ...(outcome ? { outcome } : {}),
        ...(this.workingDir ? { cwd: this.workingDir } : {}),
      }),
    );
    if (flat) this.unanswered = call;
    // `is_input` (a boolean, or "true" from the function-calling tool) sends the command to the
    // process still running; an empty command waits for more of its output. Either continues it.
    const input = args.is_input === true || args.is_input === "true" || args.command === "";
    if (action === "run" && input && this.running) this.continues.set(call, this.running);
  }

  private observation(e: EventRecord, observation: string, id: string | undefined): void {
    const { collector, draft, clock } = this.ctx;
    const v = e.value;
    if (v.extras !== undefined && v.extras !== null && !isRecord(v.extras)) {
      return collector.skip(e.position, `${observation} observation whose extras are not an object; skipped`, draft);
    }
    const flat = v.extras === undefined && id === undefined && v.cause === undefined;
    const extras = isRecord(v.extras) ? v.extras : flat ? (flatFields(v, "observation") ?? {}) : {};
    const cause = idOf(v.cause);
    const content = str(v.content) ?? str(v.message) ?? "";
    if (observation === "recall") return this.recall(e, id, extras);
    if (observation === "loop_detection") {
      // The controller's notice to the user that it stopped a loop; it answers no action.
      this.message(e, id, "system", content);
      return;
    }
    if (observation === "agent_state_changed" && typeof extras.agent_state === "string")
      this.lastState = { state: extras.agent_state, position: e.position };
    if (observation in OPENHANDS_IGNORED_OBSERVATIONS) {
      clock.see(v.timestamp);
      return collector.ignore(e.position, `observation:${observation}`);
    }
    if (CONDENSATION_OBSERVATIONS.has(observation)) {
      // The action that caused it already holds the summary and what it forgot.
      if (cause !== undefined && this.condensationActions.has(cause)) {
        clock.see(v.timestamp);
        return collector.use(e.position);
      }
      return this.condense(e, id, content, extras);
    }
    const metadata = isRecord(extras.metadata) ? extras.metadata : {};
    const exitCode = numberOf(metadata.exit_code) ?? numberOf(extras.exit_code);
    const workingDir = str(metadata.working_dir);
    if (workingDir) {
      this.workingDir = workingDir;
      draft.cwd ??= workingDir;
    }
    const call =
      cause !== undefined ? this.byId.get(cause).find((s) => s.kind === "TOOL_CALL") : flat ? this.unanswered : undefined;
    if (flat) this.unanswered = undefined;
    this.byId.add(
      id,
      draft.add({
        ...this.base(e, id),
        // The call's id, so the result carries the call's outcome (its own id stays in byId).
        ...(call?.sourceId !== undefined ? { sourceId: call.sourceId } : {}),
        kind: "TOOL_RESULT",
        body: utf8(content),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(call?.toolName ? { toolName: call.toolName } : {}),
        ...(workingDir ? { cwd: workingDir } : call?.cwd ? { cwd: call.cwd } : {}),
      }),
    );
    if (cause !== undefined && !this.seen.has(cause)) {
      collector.skip(e.position, `observation of event ${cause}, which is not in the file; the session is incomplete`, draft);
    }
    if (!call) return;
    const outcome = classicOutcome(observation, extras, content, exitCode);
    if (call.toolName === "run") this.continueRunning(call, outcome, exitCode);
    if (outcome === undefined || call.outcome === "DECLINED") return;
    call.outcome = outcome;
    if (exitCode !== undefined && exitCode >= 0) call.exitCode = exitCode;
  }

  /**
   * A command's observation, for the command it runs or continues: exit -1 leaves that command
   * running; a final exit code of an input ends it, and the command's outcome is that final one.
   */
  private continueRunning(call: DraftSpan, outcome: ToolOutcome | undefined, exitCode: number | undefined): void {
    const command = this.continues.get(call) ?? call;
    if (exitCode === -1) {
      this.running = command;
      return;
    }
    if (this.running === command) this.running = undefined;
    if (command === call || outcome === undefined || outcome === "UNKNOWN" || command.outcome === "DECLINED") return;
    command.outcome = outcome;
    if (exitCode !== undefined && exitCode >= 0) command.exitCode = exitCode;
  }

  /** A recall answer: the text it injected into the prompt, or nothing worth a span. */
  private recall(e: EventRecord, id: string | undefined, extras: Record<string, unknown>): void {
    const knowledge = Array.isArray(extras.microagent_knowledge) ? extras.microagent_knowledge.filter(isRecord) : [];
    const texts = [
      str(extras.repo_instructions),
      str(extras.additional_agent_instructions),
      str(extras.conversation_instructions),
      ...knowledge.map((k) => str(k.content)),
    ].filter((t): t is string => t !== undefined && t.trim() !== "");
    if (texts.length === 0) {
      this.ctx.clock.see(e.value.timestamp);
      return this.ctx.collector.ignore(e.position, "observation:recall");
    }
    this.message(e, id, "system", texts.join("\n\n"));
  }

  private condense(e: EventRecord, id: string | undefined, summary: string, fields: Record<string, unknown>): void {
    const replaced = this.byId.all(forgottenIds(fields));
    this.byId.add(id, this.ctx.draft.addSummary({ ...this.base(e, id), body: utf8(summary) }, replaced));
  }
}

function classicOutcome(
  observation: string,
  extras: Record<string, unknown>,
  content: string,
  exitCode: number | undefined,
): ToolOutcome | undefined {
  switch (observation) {
    case "error":
      return typeof extras.error_id === "string" && NOT_EXECUTED_ERROR_ID.test(extras.error_id) ? "UNKNOWN" : "FAILED";
    case "edit":
      return content.startsWith(EDITOR_ERROR) ? "FAILED" : "SUCCEEDED";
    case "read":
      return extras.impl_source === "oh_aci" && content.startsWith(EDITOR_ERROR) ? "FAILED" : "SUCCEEDED";
    case "user_rejected":
      return "DECLINED";
    case "browse":
      return extras.error === true ? "FAILED" : "SUCCEEDED";
    case "mcp":
      return mcpOutcome(content);
  }
  if (SUCCESS_OBSERVATIONS.has(observation)) return "SUCCEEDED";
  if (exitCode === undefined || exitCode === -1) return exitCode === -1 ? "UNKNOWN" : undefined;
  return exitCode === 0 ? "SUCCEEDED" : "FAILED";
}

/** An MCP observation's content is the tool's result as JSON; `isError` marks a failed call. */
function mcpOutcome(content: string): ToolOutcome {
  try {
    const parsed: unknown = JSON.parse(content);
    if (isRecord(parsed) && parsed.isError === true) return "FAILED";
    if (isRecord(parsed) && parsed.isError === false) return "SUCCEEDED";
  } catch {
    // Not JSON: nothing says whether it failed.
  }
  return "UNKNOWN";
}

/** The event ids a condensation forgot: an explicit list, or an inclusive id range. */
export function forgottenIds(fields: Record<string, unknown>): string[] {
  if (Array.isArray(fields.forgotten_event_ids)) {
    return fields.forgotten_event_ids.map(idOf).filter((x): x is string => x !== undefined);
  }
  const start = numberOf(fields.forgotten_events_start_id);
  const end = numberOf(fields.forgotten_events_end_id);
  if (start === undefined || end === undefined || end < start || end - start > 1_000_000) return [];
  const ids: string[] = [];
  for (let i = start; i <= end; i++) ids.push(String(i));
  return ids;
}

/**
 * A classic message action from the user: so its source says, or, without a source (flat events),
 * it repeats the instruction the line gave the agent.
 */
export function isUserMessage(v: Record<string, unknown>, instruction: string | undefined): boolean {
  if (v.source === "user") return true;
  return v.source === undefined && instruction !== undefined && messageText(v) === instruction;
}
