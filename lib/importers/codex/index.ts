/**
 * Codex CLI rollout JSONL (`rollout-*.jsonl` under the sessions folder, one session per file), as
 * the runtime's rollout recorder writes it: `{timestamp, type, payload}` lines of type session_meta,
 * turn_context, response_item, event_msg, compacted (and inter_agent_communication), or the legacy
 * layout (a bare meta object, then bare response items).
 *
 * Mapping:
 * - `session_meta` names the session (its `id`), its cwd and start, and for a thread-spawned
 *   subagent's rollout the agent every span is (./subagent); `turn_context` and
 *   `thread_settings_applied` move the cwd; `thread_name_updated` titles it.
 * - `response_item` messages are MESSAGEs (role as recorded, injected context included); readable
 *   reasoning is a MESSAGE with role "reasoning". Calls (`function_call`, `custom_tool_call`,
 *   `local_shell_call`, `web_search_call`, `image_generation_call`, `tool_search_call`) are
 *   TOOL_CALLs; their outputs TOOL_RESULTs paired by `call_id` (see ./calls).
 * - Event messages (`user_message`, `agent_message`, reasoning, completed turn items, a turn's last
 *   message, review requests and results) are MESSAGEs unless a response item (or an earlier event)
 *   of the same role already holds their text: a prompt recorded both ways is one span, and one
 *   recorded only as an event is never lost.
 * - End events give outcomes; begin events and approval requests keep a proposed call when the file
 *   has no other record of it. A paginated rollout (session_meta `history_mode: "paginated"`) keeps
 *   completed turn items (`item_completed`: CommandExecution, FileChange, McpToolCall, ...) instead
 *   of the legacy events; they are read the same way, keyed by the call id.
 * - Calls carry their `namespace` in the tool name (`mcp__docs__` + `search`).
 * - `undo_completed` (`/undo` restoring a ghost snapshot) is a TOOL_CALL with its result (./undo).
 * - `compacted` is a SUMMARY (body = `message`) replacing the spans since the last compaction that
 *   are in the file, except messages its `replacement_history` keeps verbatim.
 * - Records pair within a turn (from `task_started` to `task_complete` or `turn_aborted`), as the
 *   runtime writes them; only a call still open waits longer (./calls). So the reader hands
 *   its spans over between turns, in windows (see CodexReader.windows); a rollout without turn
 *   events (older runtimes) is one window.
 * Every line is used, ignored (./lists) or skipped with its reason; a file that lacks either end
 * of its session says so (./ends).
 */
import { Clock, ImportCollector, type DraftSpan, type SessionDraft } from "../shared/builder";
import { CodexCalls } from "./calls";
import { CodexEnds } from "./ends";
import { CALL_ITEMS, END_EVENTS, OUTPUT_ITEMS, PROPOSALS, RESPONSE_ITEM_TYPES } from "./item-types";
import { CODEX_IGNORED_EVENT_TYPES, CODEX_IGNORED_ITEM_TYPES, CODEX_IGNORED_LINE_TYPES, CODEX_IGNORED_TURN_ITEMS } from "./lists";
import { CodexMessages, EVENT_MESSAGES } from "./messages";
import { codexSubagent } from "./subagent";
import { addUndo } from "./undo";
import { contentTexts } from "./outcomes";
import { TURN_ENDS, TURN_ITEM_ENDS, TURN_ITEM_ROLES, TURN_STARTS, turnEvent, turnItemEnd, turnItemTexts } from "./turn-items";
import { rawValue } from "../shared/json-scan";
import { eachJsonLine, type JsonLine } from "../shared/jsonl";
import type { TranscriptBytes } from "../shared/source";
import type { ImportResult, ImportWindows, TranscriptImporter } from "../shared/types";
import { isRecord, lazyContentId, looksInjected, parseTimestamp, str, titleFrom, utf8 } from "../shared/text";
import { collectWindows } from "../shared/windows";

/** Lines of the legacy rollout layout (before rollout lines were typed) that carry no content. */
const LEGACY_STATE_RECORD = "state";

class CodexReader {
  readonly collector = new ImportCollector("codex");
  private readonly clock = new Clock(this.collector);
  private draft: SessionDraft | undefined;
  private turnCwd: string | undefined;
  private readonly calls: CodexCalls;
  /** The turn's messages (duplicates dropped at its end), and each session's since its last compaction. */
  private readonly messages = new CodexMessages();
  /** Lines read since the last turn boundary. */
  private turnLines = 0;
  private readonly ends = new CodexEnds();

  constructor(
    private readonly fileId: () => string,
    /** Pair records across the whole file, as before turns were read one by one (see parseCodexAcrossTurns). */
    private readonly acrossTurns = false,
  ) {
    this.calls = new CodexCalls(this.collector, (explicit) => this.cwdHint(explicit));
  }

  /**
   * Reads the rollout a turn at a time: at each turn's end (see TURN_ENDS) the turn's duplicate
   * messages are dropped and its calls settled, and once no call is left open (./calls) and at
   * least `windowSpans` spans wait, they are handed over as a window. What pairs across records
   * pairs within a turn, so the result does not depend on the window size.
   */
  *windows(bytes: TranscriptBytes, windowSpans: number): ImportWindows {
    let index = 0;
    for (const line of eachJsonLine(bytes, this.collector)) {
      const event = turnEvent(line);
      this.ends.see(line, event);
      const type = this.acrossTurns ? undefined : event;
      if (type !== undefined && TURN_STARTS.has(type)) this.endTurn(false);
      this.line(line, index++);
      this.turnLines += 1;
      if (type === undefined || !TURN_ENDS.has(type)) continue;
      this.endTurn(type === "turn_aborted");
      if (!this.calls.waiting && this.collector.pendingSpans >= windowSpans && this.collector.settled)
        yield { ...this.collector.takeWindow(), bytesRead: line.end };
    }
    this.messages.endTurn();
    this.calls.finish(this.draft);
    this.ends.mark(this.collector, this.draft);
    const last = this.collector.takeWindow();
    if (last.sessions.length > 0) yield { ...last, bytesRead: bytes.byteLength };
    return this.collector.end();
  }

  /** The records of a turn no longer pair with later ones. */
  private endTurn(aborted: boolean): void {
    if (this.turnLines === 0) return;
    this.messages.endTurn();
    this.calls.settleTurn(this.draft, aborted);
    this.turnLines = 0;
  }

  private session(): SessionDraft {
    this.draft ??= this.collector.session(`codex:${this.fileId()}`);
    return this.draft;
  }

  private skip(line: JsonLine, reason: string): void {
    this.collector.skip(line.line, reason, this.draft);
  }

  private line(line: JsonLine, index: number): void {
    const r = line.value;
    if (r.type === "session_meta") return this.meta(line, isRecord(r.payload) ? r.payload : undefined);
    if (r.payload === undefined) return this.legacy(line, index);
    if (!isRecord(r.payload)) return this.skip(line, "payload is not an object; skipped");
    switch (r.type) {
      case "response_item":
        return this.item(line, r.payload, ["payload"]);
      case "event_msg":
        return this.event(line, r.payload);
      case "turn_context":
        this.clock.see(r.timestamp);
        this.collector.use(line.line);
        if (typeof r.payload.cwd === "string") {
          this.turnCwd = r.payload.cwd;
          this.session().cwd ??= r.payload.cwd;
        }
        return;
      case "compacted":
        return this.compacted(line, r.payload);
      case "inter_agent_communication":
        return this.rawMessage(line, "agent", ["payload"]);
      default:
        if (typeof r.type === "string" && r.type in CODEX_IGNORED_LINE_TYPES) {
          this.clock.see(r.timestamp);
          return this.collector.ignore(line.line, r.type);
        }
        this.skip(
          line,
          typeof r.type === "string" ? `unknown rollout line type "${r.type}"; skipped` : "rollout line without a type; skipped",
        );
    }
  }

  /** The rollout layout before typed lines: a bare meta object first, then bare response items. */
  private legacy(line: JsonLine, index: number): void {
    const r = line.value;
    if (index === 0 && typeof r.id === "string" && r.type === undefined) return this.meta(line, r);
    if (r.record_type === LEGACY_STATE_RECORD) return this.collector.ignore(line.line, LEGACY_STATE_RECORD);
    if (typeof r.type === "string" && RESPONSE_ITEM_TYPES.has(r.type)) return this.item(line, r, []);
    this.skip(line, "line is neither a typed rollout line nor a response item; skipped");
  }

  private meta(line: JsonLine, payload: Record<string, unknown> | undefined): void {
    if (!payload || typeof payload.id !== "string") return this.skip(line, "session_meta without a string id; skipped");
    this.clock.see(line.value.timestamp ?? payload.timestamp);
    this.collector.use(line.line);
    this.ends.meta(line);
    const draft = this.collector.session(payload.id);
    this.draft = draft;
    if (typeof payload.cwd === "string") {
      draft.cwd ??= payload.cwd;
      this.turnCwd ??= payload.cwd;
    }
    draft.startedAt ??= parseTimestamp(payload.timestamp) ?? parseTimestamp(line.value.timestamp);
    // A thread-spawned subagent's own rollout: every span of its session is that agent's (./subagent).
    const subagent = codexSubagent(payload);
    if (subagent && !draft.agent)
      draft.agent = { agentId: subagent.agentId, ...(subagent.agentType !== undefined ? { agentType: subagent.agentType } : {}) };
  }

  private at(line: JsonLine): { occurredAt: Date | undefined; sourceLine: number } {
    return { occurredAt: this.clock.at(line.line, line.value.timestamp), sourceLine: line.line };
  }

  private item(line: JsonLine, p: Record<string, unknown>, path: ReadonlyArray<string>): void {
    const type = str(p.type);
    if (type !== undefined && type in CODEX_IGNORED_ITEM_TYPES) {
      this.clock.see(line.value.timestamp);
      return this.collector.ignore(line.line, type);
    }
    if (type === "message" || type === "agent_message") return this.message(line, p);
    if (type === "reasoning") return this.reasoning(line, p);
    if (type !== undefined && CALL_ITEMS.has(type)) return this.calls.call(this.session(), line, p, type, path, this.at(line));
    if (type !== undefined && OUTPUT_ITEMS.has(type)) return this.calls.output(this.session(), line, p, this.at(line));
    this.clock.see(line.value.timestamp);
    this.skip(line, type ? `unknown response item type "${type}"; skipped` : "response item without a type; skipped");
  }

  private message(line: JsonLine, p: Record<string, unknown>): void {
    const role = str(p.role) ?? (p.type === "agent_message" ? "assistant" : undefined);
    if (role === undefined) return this.skip(line, "message without a role; skipped");
    const texts = contentTexts(p.content ?? str(p.text) ?? str(p.message));
    if (texts === undefined) return this.skip(line, "message content is neither text nor a list of content items; skipped");
    const base = this.at(line);
    const draft = this.session();
    for (const t of texts.unknown) this.collector.skip(line.line, `message content item of unknown type "${t}"; skipped`, draft);
    for (const text of texts.texts) this.addMessage(draft, { ...base, kind: "MESSAGE", role, body: utf8(text) }, text, 0);
    if (texts.texts.length === 0 && texts.unknown.length === 0) this.collector.use(line.line); // images only
  }

  private reasoning(line: JsonLine, p: Record<string, unknown>): void {
    const summary = contentTexts(p.summary ?? []);
    const content = contentTexts(p.content ?? []);
    const texts = [...(summary?.texts ?? []), ...(content?.texts ?? [])];
    const base = this.at(line);
    const draft = this.session();
    for (const text of texts) this.addMessage(draft, { ...base, kind: "MESSAGE", role: "reasoning", body: utf8(text) }, text, 0);
    if (!summary || !content)
      this.collector.skip(line.line, "reasoning summary or content is not a list; that part skipped", draft);
    else if (texts.length === 0) this.collector.ignore(line.line, "reasoning:encrypted");
  }

  private addMessage(draft: SessionDraft, span: DraftSpan, text: string, tier: number): void {
    draft.add(span);
    this.messages.add(draft, span, text, tier);
    if (draft.title === undefined && span.role === "user" && !looksInjected(text)) draft.title = titleFrom(text);
  }

  private event(line: JsonLine, p: Record<string, unknown>): void {
    const type = str(p.type);
    if (type === undefined) return this.skip(line, "event without a type; skipped");
    const message = EVENT_MESSAGES[type];
    if (message) {
      const text = str(p.message) ?? str(p.text) ?? str(p.delta);
      if (text === undefined) return this.skip(line, `${type} event without text; skipped`);
      return this.eventMessage(line, message.role, text, message.tier);
    }
    if (END_EVENTS.has(type)) return this.calls.end(this.session(), line, type, p, this.at(line));
    if (PROPOSALS.has(type)) return this.calls.proposal(this.session(), line, type, p, this.at(line));
    switch (type) {
      case "web_search_end":
        return this.calls.webSearchEnd(this.session(), line, p, this.at(line));
      case "task_complete":
      case "turn_complete":
        if (typeof p.last_agent_message === "string" && p.last_agent_message !== "") {
          return this.eventMessage(line, "assistant", p.last_agent_message, 3);
        }
        break;
      case "entered_review_mode":
        return this.rawMessage(line, "user", ["payload"]);
      case "exited_review_mode":
        if (p.review_output !== null && p.review_output !== undefined) return this.rawMessage(line, "assistant", ["payload"]);
        this.clock.see(line.value.timestamp);
        return this.collector.use(line.line); // review left without a result: the request is its record
      case "item_completed":
        return this.turnItem(line, p.item);
      case "sub_agent_activity":
        // A subagent interrupted is an agent stopped: evidence, kept whole (./lists for the rest).
        if (p.kind === "interrupted") return this.rawMessage(line, "system", ["payload"]);
        break;
      case "undo_completed":
        // A workspace restore: it can rewrite and delete files (./undo).
        return addUndo(this.session(), line, p, this.at(line), this.turnCwd ?? this.draft?.cwd);
      case "thread_settings_applied": {
        // The settings a turn runs with; its cwd is where later commands run.
        this.clock.see(line.value.timestamp);
        this.collector.use(line.line);
        const cwd = isRecord(p.thread_settings) ? str(p.thread_settings.cwd) : undefined;
        if (cwd !== undefined) {
          this.turnCwd = cwd;
          this.session().cwd ??= cwd;
        }
        return;
      }
      case "thread_name_updated":
        this.clock.see(line.value.timestamp);
        this.collector.use(line.line);
        if (typeof p.thread_name === "string" && p.thread_name !== "") this.session().title = p.thread_name;
        return;
    }
    this.clock.see(line.value.timestamp);
    if (type in CODEX_IGNORED_EVENT_TYPES) return this.collector.ignore(line.line, type);
    if (typeof p.call_id === "string") return this.calls.linked(line, type, p.call_id);
    this.skip(line, `unknown event type "${type}"; skipped`);
  }

  private eventMessage(line: JsonLine, role: string, text: string, tier: number): void {
    const span: DraftSpan = { kind: "MESSAGE", role, body: utf8(text), ...this.at(line) };
    this.addMessage(this.session(), span, text, tier);
  }

  /** A record kept verbatim as a message (review requests and results, messages between agents). */
  private rawMessage(line: JsonLine, role: string, path: ReadonlyArray<string>): void {
    const raw = rawValue(line.bytes, path);
    const body = raw ? raw.slice() : utf8(JSON.stringify(line.value.payload));
    const draft = this.session();
    this.messages.note(draft, draft.add({ kind: "MESSAGE", role, body, ...this.at(line) }));
  }

  /**
   * item_completed: the runtime's own record of a finished turn item. A legacy rollout keeps only
   * plans (and sleeps); a paginated one keeps every completed item instead of the legacy events, so
   * its commands, patches and MCP calls end here, keyed by the call's id.
   */
  private turnItem(line: JsonLine, item: unknown): void {
    if (!isRecord(item) || typeof item.type !== "string") return this.skip(line, "item_completed without a typed item; skipped");
    const type = item.type;
    if (type === "SubAgentActivity" && item.kind === "interrupted") return this.rawMessage(line, "system", ["payload", "item"]);
    if (type in CODEX_IGNORED_TURN_ITEMS) {
      this.clock.see(line.value.timestamp);
      return this.collector.ignore(line.line, `item_completed:${type}`);
    }
    const role = TURN_ITEM_ROLES[type];
    if (role !== undefined) {
      const texts = turnItemTexts(item);
      if (texts.length === 0) return this.skip(line, `item_completed ${type} without text; skipped`);
      return this.eventMessage(line, role, texts.join("\n"), 2);
    }
    const at = ["payload", "item"];
    const id = str(item.id);
    switch (type) {
      case "WebSearch":
        return this.calls.webSearchEnd(this.session(), line, item, this.at(line));
      case "EnteredReviewMode":
        return this.rawMessage(line, "user", at);
      case "ExitedReviewMode":
        if (item.review_output !== null && item.review_output !== undefined) return this.rawMessage(line, "assistant", at);
        this.clock.see(line.value.timestamp);
        return this.collector.use(line.line);
    }
    const end = TURN_ITEM_ENDS[type];
    if (end !== undefined && id !== undefined)
      return this.calls.end(this.session(), line, end, turnItemEnd(item, id), this.at(line), at);
    this.clock.see(line.value.timestamp);
    // A completed image view belongs to its view_image call.
    if (type === "ImageView" && id !== undefined) return this.calls.linked(line, `item_completed:${type}`, id);
    this.skip(
      line,
      end !== undefined
        ? `item_completed ${type} without an id; skipped`
        : `item_completed with an item of unknown type "${type}"; skipped`,
    );
  }

  private compacted(line: JsonLine, p: Record<string, unknown>): void {
    const occurredAt = this.clock.at(line.line, line.value.timestamp);
    if (typeof p.message !== "string") return this.skip(line, "compacted line without a message; skipped");
    const draft = this.session();
    const kept = this.messages.keptBy(draft, p.replacement_history);
    const replaced = draft.sinceLastCompaction().filter((s) => !kept(s));
    draft.addSummary({ occurredAt, sourceLine: line.line, body: utf8(p.message) }, replaced);
  }

  private cwdHint(explicit: string | undefined): { cwd?: string } {
    const cwd = explicit ?? this.turnCwd ?? this.draft?.cwd;
    return cwd ? { cwd } : {};
  }
}

export function codexWindows(bytes: TranscriptBytes, windowSpans: number): ImportWindows {
  return new CodexReader(lazyContentId(bytes)).windows(bytes, windowSpans);
}

export function parseCodex(bytes: Uint8Array): ImportResult {
  return collectWindows(codexWindows(bytes, Number.POSITIVE_INFINITY));
}

/** Records paired across the whole file, as before turns: not for imports, the tests' reference. */
export function parseCodexAcrossTurns(bytes: Uint8Array): ImportResult {
  return collectWindows(new CodexReader(lazyContentId(bytes), true).windows(bytes, Number.POSITIVE_INFINITY));
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
  windows: codexWindows,
};
