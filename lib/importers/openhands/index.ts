/**
 * OpenHands transcripts, in the three shapes OpenHands writes:
 * 1. The classic event stream (see ./classic): a JSON array of events (a saved or
 *    downloaded trajectory), an object holding one (`trajectory` from the API, `history` or
 *    `events`), or JSON Lines of events (the event store writes one event per file).
 * 2. Agent-SDK events (see ./sdk): events with a `kind`, one per file in a conversation's
 *    `events/` folder, as JSON Lines, or in an array.
 * 3. Evaluation output (`output.jsonl`): one benchmark instance per line, with `instance_id`,
 *    `instruction`, `history` (the instance's events, classic or SDK; older releases wrote
 *    `[action, observation]` pairs), `test_result`, `metadata`, `metrics` and `error`. Each line is
 *    a session whose externalId is the instance id (with `#attempt-N` for a later attempt). When
 *    the history holds no user message, the `instruction` is the session's first "user" MESSAGE;
 *    a run's `error` is its last "system" MESSAGE; an empty `history` makes the session incomplete. `test_result`, `metadata`, `metrics` and
 *    `instance` are the harness's grading and settings, not the agent's transcript: they are not
 *    spans. Resolver output lines (`issue`, `history`, `git_patch`) are read the same way, keyed
 *    by the issue (`owner/repo#number`).
 *
 * Records: a JSON Lines file's records are its lines (an evaluation line is one record, however
 * many events its history holds); a JSON document's records are the elements of its event array,
 * numbered from 1. Ignored records are the types in OPENHANDS_IGNORED_ACTIONS,
 * OPENHANDS_IGNORED_OBSERVATIONS and OPENHANDS_SDK_IGNORED_KINDS.
 */
import { Clock, ImportCollector } from "../shared/builder";
import { locate, skipWs } from "../shared/json-scan";
import { eachJsonLine } from "../shared/jsonl";
import { ClassicReader, isUserMessage } from "./classic";
import { arrayEvents, type EventRecord, type StreamContext } from "./events";
import { SdkReader } from "./sdk";
import { headBytes, type TranscriptBytes, wholeBytes } from "../shared/source";
import type { ImportResult, ImportWindows, TranscriptImporter } from "../shared/types";
import { bomLength, contentId, decodeUtf8, isRecord, lazyContentId, str, utf8 } from "../shared/text";
import { asOneWindow, collectWindows } from "../shared/windows";

export { OPENHANDS_IGNORED_ACTIONS, OPENHANDS_IGNORED_OBSERVATIONS } from "./classic";
export { OPENHANDS_SDK_IGNORED_KINDS } from "./sdk";

/** One event stream, one session: each event goes to the reader of its shape. */
class StreamReader {
  private readonly classic: ClassicReader;
  private readonly sdk: SdkReader;

  constructor(private readonly ctx: StreamContext) {
    this.classic = new ClassicReader(ctx);
    this.sdk = new SdkReader(ctx);
  }

  read(events: readonly EventRecord[]): void {
    for (const e of events) {
      const v = e.value;
      if (typeof v.action === "string" || typeof v.observation === "string") this.classic.event(e);
      else if (typeof v.kind === "string") this.sdk.event(e, v.kind);
      else this.ctx.collector.skip(e.position, "event with no action, observation or kind; skipped", this.ctx.draft);
    }
    const last = events.at(-1);
    if (last === undefined) return;
    this.classic.finish(last.position);
    this.sdk.finish(last.position);
  }
}

class OpenHandsReader {
  readonly collector = new ImportCollector("openhands");
  private readonly clock = new Clock(this.collector);
  private readonly taken = new Set<string>();

  session(externalId: string): StreamContext {
    return { collector: this.collector, clock: this.clock, draft: this.collector.session(externalId) };
  }

  /** An id no other session of this file has (an instance evaluated twice keeps both runs apart). */
  unique(id: string, position: number): string {
    const chosen = this.taken.has(id) ? `${id}#line-${position}` : id;
    this.taken.add(chosen);
    return chosen;
  }
}

const HISTORY_KEYS = ["history", "events", "trajectory"] as const;

function historyStart(bytes: Uint8Array, from = 0): number {
  for (const key of HISTORY_KEYS) {
    const at = locate(bytes, [key], from);
    if (at >= 0 && bytes[at] === 0x5b) return at;
  }
  return -1;
}

/** The id an export or evaluation object gives its run, if any. */
function exportId(value: Record<string, unknown>): string | undefined {
  const instance = str(value.instance_id) ?? (typeof value.instance_id === "number" ? String(value.instance_id) : undefined);
  if (instance) {
    const attempt = typeof value.attempt === "number" && value.attempt > 1 ? `#attempt-${value.attempt}` : "";
    return `${instance}${attempt}`;
  }
  const issue = isRecord(value.issue) ? value.issue : undefined;
  if (issue && str(issue.owner) && str(issue.repo) && typeof issue.number === "number") {
    return `${issue.owner}/${issue.repo}#${issue.number}`;
  }
  for (const key of ["conversation_id", "session_id", "sid"]) {
    const v = str(value[key]);
    if (v) return v;
  }
  return undefined;
}

/** How much of the file is looked at for where its JSON starts (past a byte order mark and blanks). */
const START_HEAD_BYTES = 64 * 1024;

/**
 * JSON Lines (evaluation output above all, one instance per line, the largest files OpenHands
 * writes) are read line by line and handed over in windows between lines: an evaluation line is a
 * whole session. A JSON document is read whole, as one window.
 */
export function openHandsWindows(input: TranscriptBytes, windowSpans: number): ImportWindows {
  const head = headBytes(input, START_HEAD_BYTES);
  if (head[skipWs(head, bomLength(head))] !== 0x5b && looksLikeJsonLines(input)) {
    return lineWindows(input, new OpenHandsReader(), lazyContentId(input), windowSpans);
  }
  return asOneWindow(parseDocument(wholeBytes(input)), input.byteLength);
}

export function parseOpenHands(bytes: Uint8Array): ImportResult {
  return collectWindows(openHandsWindows(bytes, Number.POSITIVE_INFINITY));
}

function parseDocument(bytes: Uint8Array): ImportResult {
  const reader = new OpenHandsReader();
  const { collector } = reader;
  const fileId = lazyContentId(bytes);
  const start = skipWs(bytes, bomLength(bytes));
  if (bytes[start] === 0x5b) {
    const ctx = reader.session(`openhands:${fileId()}`);
    new StreamReader(ctx).read(arrayEvents(bytes, start, collector, (i) => i + 1, ctx.draft));
    return collector.result();
  }
  // One export object spread over many lines: its event array, record by record.
  const open = historyStart(bytes, start);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(bytes) ?? "");
  } catch {
    // A damaged export still yields its readable events; only its id is lost.
  }
  if (open < 0) {
    if (parsed === undefined) return collectWindows(lineWindows(bytes, reader, fileId, Number.POSITIVE_INFINITY));
    // One readable JSON document with no events in it: the document itself is the record.
    collector.read(0);
    collector.skip(0, "no JSON array of events and no `history`/`events`/`trajectory` array; nothing imported");
    return collector.result();
  }
  const id = isRecord(parsed) ? exportId(parsed) : undefined;
  const ctx = reader.session(id ?? `openhands:${fileId()}`);
  if (parsed === undefined) {
    // Damage outside the event array, or JSON Lines whose first lines are damaged, can hide
    // events that the array does not hold: nothing may be concluded from what is missing.
    collector.read(0);
    collector.skip(0, "the document is not valid JSON as a whole; only its event array was read");
  }
  if (bytes[skipWs(bytes, open + 1)] === 0x5d) {
    collector.read(0);
    collector.skip(0, "the document's event array holds no events; the session is incomplete", ctx.draft);
  }
  new StreamReader(ctx).read(arrayEvents(bytes, open, collector, (i) => i + 1, ctx.draft));
  return collector.result();
}

/**
 * JSON Lines: each line an event, or an export / evaluation object with its own events. Also the
 * fallback for a file that is neither (every line is then reported as the record it failed to be).
 * Loose events form one session, read at the end; evaluation lines are handed over in windows of
 * at least `windowSpans` spans, between lines.
 */
function* lineWindows(input: TranscriptBytes, reader: OpenHandsReader, fileId: () => string, windowSpans: number): ImportWindows {
  const { collector } = reader;
  const loose: EventRecord[] = [];
  for (const line of eachJsonLine(input, collector)) {
    const v = line.value;
    if (typeof v.action === "string" || typeof v.observation === "string" || typeof v.kind === "string") {
      loose.push({ position: line.line, bytes: line.bytes, value: v });
      continue;
    }
    const open = historyStart(line.bytes);
    if (open < 0) {
      collector.skip(line.line, "line is neither an event nor an object with a `history`/`events` array; skipped");
      continue;
    }
    const id = reader.unique(exportId(v) ?? `openhands:${contentId(line.bytes)}`, line.line);
    const ctx = reader.session(id);
    const events = arrayEvents(line.bytes, open, collector, () => line.line, ctx.draft);
    if (line.bytes[skipWs(line.bytes, open + 1)] === 0x5d) {
      // An agent that ran leaves at least its prompt in the history: an empty one means the
      // instance's transcript is not in the file, so nothing may be concluded from its absence.
      collector.skip(line.line, "evaluation line whose history holds no events; the session is incomplete", ctx.draft);
    }
    instance(ctx, line.line, v, events);
    if (collector.pendingSpans >= windowSpans && collector.settled) yield { ...collector.takeWindow(), bytesRead: line.end };
  }
  if (loose.length > 0) new StreamReader(reader.session(`openhands:${fileId()}`)).read(loose);
  const last = collector.takeWindow();
  if (last.sessions.length > 0) yield { ...last, bytesRead: input.byteLength };
  return collector.end();
}

/** An evaluation (or resolver) line: its events, with the instruction and error around them. */
function instance(lineCtx: StreamContext, line: number, v: Record<string, unknown>, events: EventRecord[]): void {
  const instruction = str(v.instruction);
  const ctx = instruction ? { ...lineCtx, instruction } : lineCtx;
  const { draft, clock } = ctx;
  if (instruction && !events.some((e) => fromUser(e, instruction))) {
    draft.add({
      kind: "MESSAGE",
      role: "user",
      body: utf8(instruction),
      occurredAt: clock.at(line, events[0]?.value.timestamp),
      sourceLine: line,
    });
  }
  new StreamReader(ctx).read(events);
  const error = str(v.error);
  if (error) {
    draft.add({ kind: "MESSAGE", role: "system", body: utf8(error), occurredAt: clock.at(line, undefined), sourceLine: line });
  }
  // Nothing to hold it: the session is dropped, so its line is a gap in the whole file.
  if (draft.isEmpty) ctx.collector.skip(line, "evaluation line with no events, instruction or error; skipped");
}

/** Whether an event is a message of the user's (then the instruction is not added again). */
function fromUser(e: EventRecord, instruction: string): boolean {
  const v = e.value;
  if (v.action === "message") return isUserMessage(v, instruction);
  return v.kind === "MessageEvent" && v.source === "user";
}

/**
 * JSON Lines when one of the first few non-blank lines is a whole JSON object by itself (a
 * pretty-printed export never has one; a damaged first line does not hide the rest).
 */
function looksLikeJsonLines(input: TranscriptBytes): boolean {
  const LOOK = 5;
  let seen = 0;
  const stop = new Error("looked far enough");
  const sink = {
    read() {
      if (++seen > LOOK) throw stop;
    },
    skip() {},
  };
  try {
    for (const _ of eachJsonLine(input, sink)) return true;
  } catch (error) {
    if (error !== stop) throw error;
  }
  return false;
}

const SDK_KINDS =
  /"kind"\s*:\s*"(ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent|AgentErrorEvent|UserRejectObservation|Condensation|CondensationRequest|CondensationSummaryEvent|ConversationStateUpdateEvent|ConversationErrorEvent|PauseEvent|HookExecutionEvent|ACPToolCallEvent|ServerErrorEvent|InterruptEvent)"/;

/** How strongly the head looks like each OpenHands shape; the best one counts. */
export function detectOpenHands(head: string): number {
  const text = head.replace(/^\uFEFF/, "");
  // Evaluation output: the harness writes `instance_id` first and `test_result` (its own name for
  // the grading) right after; the history may lie beyond the head.
  const evaluation = /^\s*\{\s*"instance_id"\s*:/.test(text) && /"test_result"\s*:/.test(text) ? 0.9 : 0;
  const resolver = /^\s*\{\s*"issue"\s*:\s*\{\s*"owner"\s*:/.test(text) && /"issue_type"\s*:/.test(text) ? 0.7 : 0;
  const typed = /"(action|observation)"\s*:\s*"[a-z_]+"/.test(text);
  const shaped = /"source"\s*:\s*"(user|agent|environment)"/.test(text) || /"(args|extras|cause)"\s*:/.test(text);
  const classic = typed && shaped ? 0.7 : 0;
  const sdk = SDK_KINDS.test(text) && /"source"\s*:\s*"(user|agent|environment|hook)"/.test(text) ? 0.8 : 0;
  return Math.max(evaluation, resolver, classic, sdk);
}

export const openHandsImporter: TranscriptImporter = {
  format: "openhands",
  detect: detectOpenHands,
  parse: parseOpenHands,
  windows: openHandsWindows,
};
