/**
 * OpenHands event streams: a JSON array of events, an object holding one (`history` or `events`,
 * as trajectory and evaluation exports write), or JSON Lines of events or of such objects.
 *
 * Mapping:
 * - `message` actions are MESSAGEs (role "user" from the user, "assistant" from the agent);
 *   `system` is a "system" MESSAGE, `think` a "reasoning" MESSAGE, `finish` the agent's closing
 *   "assistant" MESSAGE (it ends the run; it is not a tool with an effect).
 * - Every other action is a TOOL_CALL: toolName = the action type (`run`, `edit`, `write`, `read`,
 *   `browse`, ...; for MCP calls the MCP tool's name), toolInput = `args`, body = the `args` JSON
 *   as the file holds it, cwd = the working directory the last command reported.
 * - Observations are TOOL_RESULTs paired with their action by `cause` (toolName copied), body =
 *   `content`; exit code from `extras.metadata.exit_code` or `extras.exit_code`, and 1 for `error`
 *   and `user_rejected` observations that state none.
 * - Condensation: a `condensation` action (or a `condense` / `agent_condensation` / `condensed`
 *   observation not caused by one) is a SUMMARY (body = its summary) replacing the forgotten events
 *   (`forgotten_event_ids`, or the `forgotten_events_start_id`..`end_id` range) present in the file.
 * - Records are numbered by position: line for JSON Lines, 1-based index in the array otherwise.
 */
import { Clock, ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import { locate, rawValue, splitArray, skipWs } from "./json-scan";
import { readJsonLines } from "./jsonl";
import type { ImportResult, TranscriptImporter } from "./types";
import { bomLength, contentId, decodeUtf8, isRecord, looksInjected, str, titleFrom, utf8 } from "./text";

/** Actions ignored on purpose: runtime bookkeeping, not something the agent did. */
export const OPENHANDS_IGNORED_ACTIONS: Readonly<Record<string, string>> = {
  change_agent_state: "the controller's state machine",
  null: "a placeholder the runtime emits when there is nothing to do",
  recall: "the runtime looking up its own knowledge for the prompt",
  condensation_request: "a request to condense; the condensation itself is recorded",
};

/** Observations ignored on purpose. */
export const OPENHANDS_IGNORED_OBSERVATIONS: Readonly<Record<string, string>> = {
  agent_state_changed: "the controller's state machine",
  null: "a placeholder the runtime emits when there is nothing to report",
  recall: "knowledge the runtime injected into the prompt (repository instructions, microagents)",
};

const CONDENSATION_OBSERVATIONS = new Set(["condense", "agent_condensation", "condensed"]);
const FAILURE_OBSERVATIONS = new Set(["error", "user_rejected"]);
const MCP_ACTIONS = new Set(["mcp", "call_tool_mcp"]);

interface EventRecord {
  /** Line (JSON Lines) or 1-based array index: where to point a reader. */
  position: number;
  /** The event's own bytes, for slicing `args` verbatim. */
  bytes: Uint8Array;
  value: Record<string, unknown>;
}

class OpenHandsReader {
  readonly collector = new ImportCollector("openhands");
  private readonly clock = new Clock(this.collector);

  /** One event stream, one session. */
  session(externalId: string, events: EventRecord[]): void {
    const draft = this.collector.session(externalId);
    new StreamReader(this.collector, this.clock, draft).read(events);
  }
}

class StreamReader {
  private readonly byEventId = new Map<string, DraftSpan>();
  private readonly condensationActions = new Set<string>();
  private workingDir: string | undefined;

  constructor(
    private readonly collector: ImportCollector,
    private readonly clock: Clock,
    private readonly draft: SessionDraft,
  ) {}

  read(events: EventRecord[]): void {
    for (const event of events) this.event(event);
  }

  private event(e: EventRecord): void {
    const v = e.value;
    const id = typeof v.id === "number" || typeof v.id === "string" ? String(v.id) : undefined;
    if (typeof v.action === "string") return this.action(e, v.action, id);
    if (typeof v.observation === "string") return this.observation(e, v.observation, id);
    this.collector.issue(e.position, "event with neither an action nor an observation; skipped");
  }

  private base(e: EventRecord, id: string | undefined): { occurredAt: Date | undefined; sourceLine: number; sourceId?: string } {
    return {
      occurredAt: this.clock.at(e.position, e.value.timestamp),
      sourceLine: e.position,
      ...(id !== undefined ? { sourceId: id } : {}),
    };
  }

  private remember(id: string | undefined, span: DraftSpan): void {
    if (id !== undefined) this.byEventId.set(id, span);
  }

  private action(e: EventRecord, action: string, id: string | undefined): void {
    if (action in OPENHANDS_IGNORED_ACTIONS) return this.clock.see(e.value.timestamp);
    const v = e.value;
    const args = isRecord(v.args) ? v.args : {};
    const message = str(v.message);
    switch (action) {
      case "message": {
        const text = str(args.content) ?? message ?? "";
        const role = v.source === "user" ? "user" : v.source === "environment" ? "system" : "assistant";
        this.remember(id, this.draft.add({ ...this.base(e, id), kind: "MESSAGE", role, body: utf8(text) }));
        if (this.draft.title === undefined && role === "user" && !looksInjected(text)) this.draft.title = titleFrom(text);
        return;
      }
      case "system":
        this.remember(
          id,
          this.draft.add({
            ...this.base(e, id),
            kind: "MESSAGE",
            role: "system",
            body: utf8(str(args.content) ?? message ?? ""),
          }),
        );
        return;
      case "think":
        this.remember(
          id,
          this.draft.add({
            ...this.base(e, id),
            kind: "MESSAGE",
            role: "reasoning",
            body: utf8(str(args.thought) ?? message ?? ""),
          }),
        );
        return;
      case "finish": {
        const text = str(args.final_thought) ?? str(args.thought) ?? message ?? "";
        this.remember(id, this.draft.add({ ...this.base(e, id), kind: "MESSAGE", role: "assistant", body: utf8(text) }));
        return;
      }
      case "condensation":
        if (id !== undefined) this.condensationActions.add(id);
        this.condense(e, id, str(args.summary) ?? "", args);
        return;
      default: {
        if (!isRecord(v.args)) return this.collector.issue(e.position, `${action} action without args; skipped`);
        const raw = rawValue(e.bytes, ["args"]);
        const toolName = MCP_ACTIONS.has(action) ? (str(args.name) ?? action) : action;
        const span = this.draft.add({
          ...this.base(e, id),
          kind: "TOOL_CALL",
          toolName,
          toolInput: args,
          body: raw ? raw.slice() : utf8(JSON.stringify(args)),
          ...(this.workingDir ? { cwd: this.workingDir } : {}),
        });
        this.remember(id, span);
      }
    }
  }

  private observation(e: EventRecord, observation: string, id: string | undefined): void {
    if (observation in OPENHANDS_IGNORED_OBSERVATIONS) return this.clock.see(e.value.timestamp);
    const v = e.value;
    const extras = isRecord(v.extras) ? v.extras : {};
    const cause = typeof v.cause === "number" || typeof v.cause === "string" ? String(v.cause) : undefined;
    const content = str(v.content) ?? str(v.message) ?? "";
    if (CONDENSATION_OBSERVATIONS.has(observation)) {
      // The action that caused it already holds the summary and what it forgot.
      if (cause !== undefined && this.condensationActions.has(cause)) return this.clock.see(v.timestamp);
      return this.condense(e, id, content, extras);
    }
    const metadata = isRecord(extras.metadata) ? extras.metadata : {};
    const stated = numberOf(metadata.exit_code) ?? numberOf(extras.exit_code);
    const exitCode = stated ?? (FAILURE_OBSERVATIONS.has(observation) ? 1 : undefined);
    const workingDir = str(metadata.working_dir);
    if (workingDir) {
      this.workingDir = workingDir;
      this.draft.cwd ??= workingDir;
    }
    const call = cause !== undefined ? this.byEventId.get(cause) : undefined;
    const pairedCall = call?.kind === "TOOL_CALL" ? call : undefined;
    this.remember(
      id,
      this.draft.add({
        ...this.base(e, id),
        kind: "TOOL_RESULT",
        body: utf8(content),
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(pairedCall?.toolName ? { toolName: pairedCall.toolName } : {}),
        ...(workingDir ? { cwd: workingDir } : pairedCall?.cwd ? { cwd: pairedCall.cwd } : {}),
      }),
    );
  }

  private condense(e: EventRecord, id: string | undefined, summary: string, fields: Record<string, unknown>): void {
    const forgotten = forgottenIds(fields);
    const replaced = forgotten.map((f) => this.byEventId.get(f)).filter((s): s is DraftSpan => s !== undefined);
    this.remember(id, this.draft.addSummary({ ...this.base(e, id), body: utf8(summary) }, replaced));
  }
}

function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** The event ids a condensation forgot: an explicit list, or an inclusive id range. */
function forgottenIds(fields: Record<string, unknown>): string[] {
  if (Array.isArray(fields.forgotten_event_ids)) {
    return fields.forgotten_event_ids.filter((x) => typeof x === "number" || typeof x === "string").map(String);
  }
  const start = numberOf(fields.forgotten_events_start_id);
  const end = numberOf(fields.forgotten_events_end_id);
  if (start === undefined || end === undefined || end < start) return [];
  const ids: string[] = [];
  for (let i = start; i <= end; i++) ids.push(String(i));
  return ids;
}

/** Elements of the array opening at `open`, each parsed on its own; failures become issues. */
function arrayEvents(
  bytes: Uint8Array,
  open: number,
  collector: ImportCollector,
  position: (index: number) => number,
): EventRecord[] {
  const { elements } = splitArray(bytes, open);
  const events: EventRecord[] = [];
  elements.forEach((el, index) => {
    const at = position(index);
    const slice = bytes.subarray(el.start, el.end);
    const text = decodeUtf8(slice);
    if (text === undefined) return collector.issue(at, "invalid UTF-8 in event; skipped");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return collector.issue(
        at,
        el.complete ? `malformed event JSON (${detail}); skipped` : "truncated event at the end of the file; skipped",
      );
    }
    if (!isRecord(value)) return collector.issue(at, "event is not a JSON object; skipped");
    events.push({ position: at, bytes: slice, value });
  });
  return events;
}

const SESSION_ID_KEYS = ["session_id", "sid", "conversation_id", "instance_id", "id"] as const;

/** The id an export object gives its run, if any. */
function exportId(value: Record<string, unknown>): string | undefined {
  for (const key of SESSION_ID_KEYS) {
    const v = value[key];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number" && key !== "id") return String(v);
  }
  return undefined;
}

const HISTORY_KEYS = ["history", "events"] as const;

function historyStart(bytes: Uint8Array, from = 0): number {
  for (const key of HISTORY_KEYS) {
    const at = locate(bytes, [key], from);
    if (at >= 0 && bytes[at] === 0x5b) return at;
  }
  return -1;
}

export function parseOpenHands(bytes: Uint8Array): ImportResult {
  const reader = new OpenHandsReader();
  const { collector } = reader;
  const fileId = contentId(bytes);
  const start = skipWs(bytes, bomLength(bytes));
  if (bytes[start] === 0x5b) {
    reader.session(
      `openhands:${fileId}`,
      arrayEvents(bytes, start, collector, (i) => i + 1),
    );
    return collector.result();
  }
  if (looksLikeJsonLines(bytes, start)) return parseLines(bytes, reader, fileId);
  // One export object spread over many lines: its event array, record by record.
  const open = historyStart(bytes, start);
  if (open < 0) {
    collector.issue(0, "no JSON array of events, no `history`/`events` array, and not JSON Lines; nothing imported");
    return collector.result();
  }
  let id: string | undefined;
  const whole = decodeUtf8(bytes);
  try {
    const parsed: unknown = whole === undefined ? undefined : JSON.parse(whole);
    if (isRecord(parsed)) id = exportId(parsed);
  } catch {
    // A damaged export still yields its readable events; only its id is lost.
  }
  reader.session(
    id ?? `openhands:${fileId}`,
    arrayEvents(bytes, open, collector, (i) => i + 1),
  );
  return collector.result();
}

/** JSON Lines: each line an event, or an export object with its own event array (one session each). */
function parseLines(bytes: Uint8Array, reader: OpenHandsReader, fileId: string): ImportResult {
  const { collector } = reader;
  const lines = readJsonLines(bytes, collector);
  const loose: EventRecord[] = [];
  for (const line of lines) {
    if (typeof line.value.action === "string" || typeof line.value.observation === "string") {
      loose.push({ position: line.line, bytes: line.bytes, value: line.value });
      continue;
    }
    const open = historyStart(line.bytes);
    if (open < 0) {
      collector.issue(line.line, "line is neither an event nor an object with a `history`/`events` array; skipped");
      continue;
    }
    const id = exportId(line.value) ?? `openhands:${contentId(line.bytes)}`;
    reader.session(
      id,
      arrayEvents(line.bytes, open, collector, () => line.line),
    );
  }
  if (loose.length > 0) reader.session(`openhands:${fileId}`, loose);
  return collector.result();
}

/**
 * JSON Lines when one of the first few non-blank lines is a whole JSON object by itself (a
 * pretty-printed export never has one; a damaged first line does not hide the rest).
 */
function looksLikeJsonLines(bytes: Uint8Array, start: number): boolean {
  let from = start;
  for (let seen = 0; seen < 5 && from < bytes.length; ) {
    const end = bytes.indexOf(0x0a, from);
    const text = decodeUtf8(bytes.subarray(from, end < 0 ? bytes.length : end))?.trim() ?? "";
    from = end < 0 ? bytes.length : end + 1;
    if (text === "") continue;
    seen++;
    try {
      if (isRecord(JSON.parse(text))) return true;
    } catch {
      // Not a whole object on this line: look at the next.
    }
  }
  return false;
}

export const openHandsImporter: TranscriptImporter = {
  format: "openhands",
  detect(head) {
    const typed = /"(action|observation)"\s*:\s*"[a-z_]+"/.test(head);
    const shaped = /"source"\s*:\s*"(user|agent|environment)"/.test(head) || /"(args|extras|cause)"\s*:/.test(head);
    return typed && shaped ? 0.7 : 0;
  },
  parse: parseOpenHands,
};
