/**
 * Tool calls in a Codex rollout and everything the rollout keeps about each, paired by `call_id`:
 * the call item, its output item, the runtime's begin/approval/end events. A call recorded only by
 * an event (a user's own shell command, an approval request, a patch whose call item is missing)
 * still becomes a TOOL_CALL; the stand-in is dropped when the call item turns up.
 *
 * Records pair within a turn: the runtime writes a call, its events and its output in the turn that
 * made it. At each turn's end (see settleTurn) the turn's calls are settled (./outcomes) and
 * forgotten, except a call still open (see isOpen): one with no record of it yet, or one that
 * started a process left running. An open call waits for its records up to OPEN_TURNS more turns
 * (one cut short by an interrupted turn, none), then is settled as it stands; a record arriving
 * later becomes its result, with a warning. An output whose call is neither in its turn nor open
 * makes its session incomplete.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { DraftSpan, ImportCollector, SessionDraft } from "../shared/builder";
import { type EndFacts, endFacts, itemStatusOutcome, type OutputFacts, outputFacts, runningSession, settle } from "./outcomes";
import { qualifiedName, standInSpan } from "./stand-ins";
import { rawValue } from "../shared/json-scan";
import type { JsonLine } from "../shared/jsonl";
import { isRecord, str, utf8 } from "../shared/text";

type Base = { occurredAt: Date | undefined; sourceLine: number };

/**
 * How many turns after its own an open call still waits for its output or end event. A background
 * process may end a few turns on; a call cut short by an interruption never gets either, and holds
 * its session's later spans in memory while it waits.
 */
export const OPEN_TURNS = 10;

interface CallState {
  call?: DraftSpan;
  /** A call made from an event, until (unless) the call item appears. */
  standIn?: DraftSpan;
  results: DraftSpan[];
  /** A result made from an end event, dropped if the output item appears. */
  standInResult?: DraftSpan;
  out?: OutputFacts;
  end?: EndFacts;
  /** web_search_call / image_generation_call: the item's own status. */
  itemOutcome?: ToolOutcome;
  outputLines: number[];
  draft: SessionDraft;
  /** The turn the call's first record was read in. */
  turn: number;
  /** Its output left a session running that this call started: its end event says how it went. */
  startedSession?: boolean;
  /** That session's exit as a later write_stdin output states it (rollouts without end events). */
  sessionExit?: number;
}

export class CodexCalls {
  private readonly states = new Map<string, CallState>();
  private readonly searchQueries = new Set<string>();
  private readonly searchStandIns: Array<{ span: DraftSpan; query: string }> = [];
  private readonly linkedLines: Array<{ line: number; type: string; callId: string }> = [];
  /** Calls settled in earlier turns (whether they had a result), for records that arrive later. */
  private readonly settledIds = new Map<string, boolean>();
  private turn = 0;
  /** Unified exec sessions seen running, by the call that started each (its polls are not it). */
  private readonly runningSessions = new Map<string, string>();
  /** Whether the rollout records end events (the runtime's default persistence leaves them out). */
  private endsRecorded = false;

  constructor(
    private readonly collector: ImportCollector,
    private readonly cwdHint: (explicit: string | undefined) => { cwd?: string },
  ) {}

  private state(draft: SessionDraft, callId: string): CallState {
    let s = this.states.get(callId);
    if (!s) {
      s = { results: [], outputLines: [], draft, turn: this.turn };
      this.states.set(callId, s);
    }
    return s;
  }

  /** A call item: function_call, custom_tool_call, local_shell_call, web_search_call, ... */
  call(
    draft: SessionDraft,
    line: JsonLine,
    p: Record<string, unknown>,
    type: string,
    path: ReadonlyArray<string>,
    base: Base,
  ): void {
    const skip = (reason: string) => this.collector.skip(line.line, reason, draft);
    let span: DraftSpan;
    let callId: string | undefined;
    if (type === "function_call") {
      if (typeof p.call_id !== "string" || typeof p.name !== "string" || typeof p.arguments !== "string") {
        return skip("function_call without string call_id, name and arguments; skipped");
      }
      let input: unknown = p.arguments;
      try {
        input = JSON.parse(p.arguments);
      } catch {
        // Arguments that are not JSON are kept as the string the model produced.
      }
      const workdir = isRecord(input) ? (str(input.workdir) ?? str(input.cwd)) : undefined;
      callId = p.call_id;
      span = {
        ...base,
        kind: "TOOL_CALL",
        toolName: qualifiedName(p.namespace, p.name),
        toolInput: input,
        body: utf8(p.arguments),
        ...this.cwdHint(workdir),
      };
    } else if (type === "custom_tool_call") {
      if (typeof p.call_id !== "string" || typeof p.name !== "string" || typeof p.input !== "string") {
        return skip("custom_tool_call without string call_id, name and input; skipped");
      }
      callId = p.call_id;
      span = {
        ...base,
        kind: "TOOL_CALL",
        toolName: qualifiedName(p.namespace, p.name),
        toolInput: p.input,
        body: utf8(p.input),
        ...this.cwdHint(undefined),
      };
    } else {
      const action = isRecord(p.action) ? p.action : undefined;
      if (type === "local_shell_call" && !action) return skip("local_shell_call without an action; skipped");
      callId = str(p.call_id) ?? str(p.id);
      const field = action ? "action" : undefined;
      const raw = rawValue(line.bytes, field ? [...path, field] : path);
      const input = action ?? p;
      span = {
        ...base,
        kind: "TOOL_CALL",
        toolName: type.replace(/_call$/, ""),
        toolInput: input,
        body: raw ? raw.slice() : utf8(JSON.stringify(input)),
        ...this.cwdHint(action ? str(action.working_directory) : undefined),
      };
      const query = action
        ? (str(action.query) ?? (Array.isArray(action.queries) ? str(action.queries[0]) : undefined))
        : undefined;
      if (type === "web_search_call" && query) this.searchQueries.add(query);
      if (type === "web_search_call" || type === "image_generation_call") span.outcome = itemStatusOutcome(p.status);
    }
    draft.add(span);
    if (callId === undefined) return;
    span.sourceId = callId;
    const s = this.state(draft, callId);
    s.call = span;
    if (s.standIn) s.standIn.dropped = true;
    if (span.outcome !== undefined) s.itemOutcome = span.outcome;
    if (s.end?.cwd) span.cwd = s.end.cwd;
  }

  /** function_call_output / custom_tool_call_output / tool_search_output: the call's result. */
  output(draft: SessionDraft, line: JsonLine, p: Record<string, unknown>, base: Base): void {
    const type = str(p.type);
    if (typeof p.call_id !== "string") return this.collector.skip(line.line, `${type} without a string call_id; skipped`, draft);
    let facts = outputFacts(p.output);
    if (facts === undefined && type === "tool_search_output") {
      const raw = rawValue(line.bytes, ["payload"]) ?? line.bytes;
      // Its own status says how the search went: completed or failed.
      const success = p.status === "completed" ? true : p.status === "failed" ? false : undefined;
      facts = { text: new TextDecoder().decode(raw), ...(success !== undefined ? { success } : {}) };
    }
    if (facts === undefined) {
      return this.collector.skip(line.line, `${type} output is neither text nor content items; skipped`, draft);
    }
    if (this.late(draft, line, p.call_id, "output", facts.text, base, undefined)) return;
    const s = this.state(draft, p.call_id);
    const call = s.call ?? s.standIn;
    const span = draft.add({
      ...base,
      kind: "TOOL_RESULT",
      body: utf8(facts.text),
      sourceId: p.call_id,
      ...(call?.toolName ? { toolName: call.toolName } : {}),
      ...(call?.cwd ? { cwd: call.cwd } : {}),
    });
    s.results.push(span);
    s.out = facts;
    const session = runningSession(facts);
    s.startedSession = session !== undefined && !this.runningSessions.has(session);
    if (session !== undefined && s.startedSession) this.runningSessions.set(session, p.call_id);
    // A poll of a running session answered with its exit, while the call that started it is still
    // unsettled (its turn, or held open): that call ended so. Later, it keeps what it was settled with.
    const polled = call?.toolName === "write_stdin" ? sessionIdOf(call.toolInput) : undefined;
    const starter = polled !== undefined ? this.states.get(this.runningSessions.get(polled) ?? "") : undefined;
    if (starter && facts.exitCode !== undefined) starter.sessionExit = facts.exitCode;
    s.outputLines.push(line.line);
    if (s.standInResult) s.standInResult.dropped = true;
  }

  /**
   * exec_command_end / patch_apply_end / mcp_tool_call_end (or the completed turn item a paginated
   * rollout keeps instead, read at `at`): the runtime's record of how the call ended.
   */
  end(
    draft: SessionDraft,
    line: JsonLine,
    type: string,
    p: Record<string, unknown>,
    base: Base,
    at: ReadonlyArray<string> = ["payload"],
  ): void {
    if (typeof p.call_id !== "string") return this.collector.skip(line.line, `${type} without a string call_id; skipped`, draft);
    const facts = endFacts(type, p);
    this.endsRecorded = true;
    if (this.late(draft, line, p.call_id, "end event", facts.output, base, facts.exitCode)) return;
    const s = this.state(draft, p.call_id);
    s.end = facts;
    if (facts.cwd) for (const span of [s.call, s.standIn, ...s.results]) if (span) span.cwd = facts.cwd;
    if (s.results.length > 0) return this.collector.use(line.line);
    if (!s.call && !s.standIn) this.standInCall(draft, line, type, p, p.call_id, base, at);
    const call = s.call ?? s.standIn;
    s.standInResult = draft.add({
      ...base,
      kind: "TOOL_RESULT",
      body: utf8(facts.output),
      sourceId: p.call_id,
      ...(call?.toolName ? { toolName: call.toolName } : {}),
      ...(facts.cwd ? { cwd: facts.cwd } : {}),
    });
  }

  /** A proposed call the runtime announced (approval requests, begin events). */
  proposal(draft: SessionDraft, line: JsonLine, type: string, p: Record<string, unknown>, base: Base): void {
    const callId = str(p.call_id) ?? str(p.approval_id);
    const s = callId !== undefined ? this.states.get(callId) : undefined;
    if (s?.call || s?.standIn || (!s && callId !== undefined && this.settledIds.has(callId)))
      return this.collector.use(line.line);
    if (!this.standInCall(draft, line, type, p, callId, base)) {
      this.collector.skip(line.line, `${type} without a command, changes or invocation; skipped`, draft);
    }
  }

  /** A call known only from an event; false when the event holds nothing to make one from. */
  private standInCall(
    draft: SessionDraft,
    line: JsonLine,
    type: string,
    p: Record<string, unknown>,
    callId: string | undefined,
    base: Base,
    at: ReadonlyArray<string> = ["payload"],
  ): boolean {
    const span = standInSpan(line, type, p, base, at, this.cwdHint);
    if (!span) return false;
    draft.add(span);
    if (callId !== undefined) {
      span.sourceId = callId;
      this.state(draft, callId).standIn = span;
    }
    return true;
  }

  /** web_search_end (or a completed WebSearch turn item): a search, unless a search call item has it. */
  webSearchEnd(draft: SessionDraft, line: JsonLine, p: Record<string, unknown>, base: Base): void {
    const action = isRecord(p.action) ? p.action : undefined;
    const query = str(p.query) ?? (action ? str(action.query) : undefined);
    if (query === undefined || query === "")
      return this.collector.skip(line.line, "web search record without a query; skipped", draft);
    const span = draft.add({
      ...base,
      kind: "TOOL_CALL",
      toolName: "web_search",
      toolInput: { query },
      body: utf8(query),
      ...((str(p.call_id) ?? str(p.id)) ? { sourceId: str(p.call_id) ?? str(p.id) } : {}),
    });
    this.searchStandIns.push({ span, query });
  }

  /** Another event tied to a call (view_image, collab and dynamic tool events): merged into it. */
  linked(line: JsonLine, type: string, callId: string): void {
    this.linkedLines.push({ line: line.line, type, callId });
  }

  /**
   * A record of a call settled at the end of an earlier turn: it adds the result the call did not
   * have yet (an end event after its final output adds nothing), and the call keeps the outcome it
   * was settled with. False when the call is not one of those.
   */
  private late(
    draft: SessionDraft,
    line: JsonLine,
    callId: string,
    what: "output" | "end event",
    text: string,
    base: Base,
    exitCode: number | undefined,
  ): boolean {
    const hadResult = this.states.has(callId) ? undefined : this.settledIds.get(callId);
    if (hadResult === undefined) return false;
    this.collector.issue(
      line.line,
      `${what} for call ${callId} came after its turn ended; the call keeps the outcome it was settled with`,
    );
    if (what === "end event" && hadResult) {
      this.collector.use(line.line);
      return true;
    }
    draft.add({
      ...base,
      kind: "TOOL_RESULT",
      body: utf8(text),
      sourceId: callId,
      ...(exitCode !== undefined ? { exitCode } : {}),
    });
    this.settledIds.set(callId, true);
    return true;
  }

  /**
   * A call that may still hear how it went: one with no record of it yet, or one that started a
   * session left running, in a rollout that records end events. A call whose item holds its own
   * status (web search, image generation) has nothing more to come.
   */
  private isOpen(s: CallState): boolean {
    if (s.end !== undefined || s.itemOutcome !== undefined) return false;
    return s.out === undefined || (s.startedSession === true && this.endsRecorded);
  }

  /** Whether a call is still open: the spans read since it was made cannot be handed over yet. */
  get waiting(): boolean {
    return this.states.size > 0;
  }

  /**
   * A turn ended: its calls are settled, and so are open calls that waited OPEN_TURNS turns. An
   * interrupted turn (`aborted`) also settles the calls it cut short, those with neither output nor
   * end event: the interruption cancelled them, and waiting would hold every span after them.
   */
  settleTurn(draft: SessionDraft | undefined, aborted: boolean): void {
    this.settle(false, draft, aborted);
    this.turn += 1;
  }

  /** The file ended: every call is settled as it stands. */
  finish(draft: SessionDraft | undefined): void {
    this.settle(true, draft);
  }

  private settle(all: boolean, draft: SessionDraft | undefined, aborted = false): void {
    for (const { span, query } of this.searchStandIns) if (this.searchQueries.has(query)) span.dropped = true;
    this.searchStandIns.length = 0;
    this.searchQueries.clear();
    for (const [callId, s] of this.states) {
      const call = s.call ?? s.standIn;
      if (!call) {
        for (const line of s.outputLines) {
          this.collector.skip(
            line,
            `output for call ${callId}, whose call record is not in the file (in its turn or an open call's); the session is incomplete`,
            s.draft,
          );
        }
        this.states.delete(callId);
        continue;
      }
      const cutShort = aborted && s.out === undefined && s.end === undefined;
      if (!all && !cutShort && this.isOpen(s) && this.turn - s.turn < OPEN_TURNS) continue;
      const exited = s.end === undefined ? s.sessionExit : undefined;
      const settled =
        exited !== undefined
          ? { outcome: (exited === 0 ? "SUCCEEDED" : "FAILED") as ToolOutcome, exitCode: exited }
          : s.end || s.out
            ? settle(s.end, s.out)
            : { outcome: s.itemOutcome ?? ("UNKNOWN" as ToolOutcome) };
      call.outcome = settled.outcome;
      if (settled.exitCode !== undefined) call.exitCode = settled.exitCode;
      for (const r of [...s.results, s.standInResult]) if (r && settled.exitCode !== undefined) r.exitCode = settled.exitCode;
      this.states.delete(callId);
      // Whether it has its final result: an output that left its session running is not one.
      this.settledIds.set(callId, s.standInResult !== undefined || (s.results.length > 0 && !s.startedSession));
    }
    for (const l of this.linkedLines) {
      const s = this.states.get(l.callId);
      if (s?.call || s?.standIn || this.settledIds.has(l.callId)) this.collector.use(l.line);
      else this.collector.skip(l.line, `${l.type} for call ${l.callId}, whose call record is not in the file; skipped`, draft);
    }
    this.linkedLines.length = 0;
  }
}

/** The unified exec session a write_stdin call writes to (`session_id`, a number or its text). */
function sessionIdOf(input: unknown): string | undefined {
  const id = typeof input === "object" && input !== null ? (input as { session_id?: unknown }).session_id : undefined;
  return typeof id === "number" || typeof id === "string" ? String(id) : undefined;
}
