/**
 * SWE-agent trajectories (`<instance_id>.traj`): one JSON document per run, written again after
 * every step. Its records are the `trajectory` steps (action, observation, response, thought,
 * state, execution_time, query, extra_info), the `history` entries (role, content, agent,
 * message_type, is_demo, thought, action, tool_calls, tool_call_ids, thinking_blocks) and the
 * `info` object (exit_status, submission, model_stats, edited_files...); 1.x adds `replay_config`
 * and `environment` (metadata, not records). A retry agent's file holds `attempts` (each a whole
 * run of the above) and, once it chose, a copy of the best attempt at the top level.
 *
 * Mapping:
 * - An action step's thought (else its response) is an "assistant" MESSAGE; thinking blocks a
 *   "reasoning" MESSAGE; the action a TOOL_CALL: the function call the history holds (toolName =
 *   its name, toolInput = its parsed arguments, body = the arguments as written), else the command
 *   line (see commandLineCall); its observation a TOOL_RESULT. `exit` ends the run (no tool) and
 *   an action-less step at an exit ("Exit due to cost limit", "Exited (autosubmitted)") is the
 *   runtime's "system" MESSAGE.
 * - History system prompts are "system" MESSAGEs, the instance text a "user" MESSAGE.
 *   Demonstrations (`is_demo`, message_type "demonstration") are MESSAGEs with role
 *   "demonstration", never TOOL_CALLs: they are examples shown to the model, not its acts.
 * - Steps and history entries that record the same act are merged, not counted twice: an
 *   assistant entry is matched to the next step with the same action and thought (or response),
 *   and the observation entry that follows it to that step's result; both entries are used by the
 *   step's spans. The step's raw observation is the result body; when it printed nothing, the
 *   history's text for it ("Your command ran successfully and did not produce any output").
 *   Steps between matches are requeries the history left out (format errors, blocked or
 *   syntactically broken commands): they ran only if they have an observation.
 * - `info` is a "system" MESSAGE whose body is the info object as written: the run's exit status
 *   and the patch it submitted (which names every file the run changed, as PATH atoms; the acts
 *   themselves are the edit calls). Its exit_status decides nothing about single calls.
 * - Attempts: each attempt's spans carry agentId "attempt_<n>"; the top-level copy of the chosen
 *   attempt is merged into it (records used, no spans of their own), whatever differs is imported.
 * - Records are numbered 1, 2, ... in the order they appear in the file. The format records no
 *   times: spans carry the epoch (reported once).
 * - externalId: the instance id the replay config names (`problem_statement.id`), else
 *   "swe-agent:" and a content id.
 */
import { ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import { locate, rawValue, skipValue, skipWs, splitArray } from "./json-scan";
import {
  BLOCKED,
  commandLineCall,
  contentText,
  functionCalls,
  outcomeOf,
  thinkingText,
  workingDirOf,
  type ToolCallShape,
} from "./swe-agent-steps";
import { bomLength, contentId, decodeUtf8, isRecord, str, titleFrom, utf8 } from "./text";
import type { ImportResult, TranscriptImporter } from "./types";

type Value = Record<string, unknown>;

/** One record of a stream: its number, and its value when it parsed. */
interface Rec {
  position: number;
  value?: Value;
  /** The record's bytes as the file holds them. */
  raw: Uint8Array;
}

interface Stream {
  steps: Rec[];
  entries: Rec[];
  info?: Rec;
  agentId?: string;
}

/** A record array or object found in the document, before numbering. */
interface Found {
  start: number;
  end: number;
  complete: boolean;
  into: Rec[] | ((r: Rec) => void);
}

const STREAM_KEYS = ["trajectory", "history"] as const;

class Reader {
  readonly collector = new ImportCollector("swe-agent");
  private readonly found: Found[] = [];

  constructor(private readonly bytes: Uint8Array) {}

  /** Collects the records of the run object at `path` (the top level, or an attempt). */
  stream(path: ReadonlyArray<string | number>, agentId?: string): Stream {
    const stream: Stream = { steps: [], entries: [], ...(agentId ? { agentId } : {}) };
    STREAM_KEYS.forEach((key) => {
      const open = locate(this.bytes, [...path, key]);
      if (open < 0 || this.bytes[open] !== 0x5b) return;
      for (const el of splitArray(this.bytes, open).elements) {
        this.found.push({ ...el, into: key === "trajectory" ? stream.steps : stream.entries });
      }
    });
    const info = locate(this.bytes, [...path, "info"]);
    if (info >= 0 && this.bytes[info] !== 0x6e) {
      const end = skipValue(this.bytes, info);
      this.found.push({
        start: info,
        end: end < 0 ? this.bytes.length : end,
        complete: end >= 0,
        into: (r) => {
          stream.info = r;
        },
      });
    }
    return stream;
  }

  /** Numbers every record in file order, reads it, and parses it (skipping what cannot be read). */
  number(): void {
    const sorted = [...this.found].sort((a, b) => a.start - b.start);
    sorted.forEach((f, i) => {
      const position = i + 1;
      this.collector.read(position);
      const rec: Rec = { position, raw: this.bytes.subarray(f.start, f.end) };
      const value = this.parse(f, position);
      if (value) rec.value = value;
      if (Array.isArray(f.into)) f.into.push(rec);
      else f.into(rec);
    });
    // Arrays were filled in file order per stream: keep each in its own order.
  }

  private parse(f: Found, position: number): Value | undefined {
    const text = decodeUtf8(this.bytes.subarray(f.start, f.end));
    if (text === undefined) return this.skip(position, "invalid UTF-8 in record; skipped");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return this.skip(
        position,
        f.complete ? `malformed record JSON (${detail}); skipped` : "truncated record at the end of the file; skipped",
      );
    }
    if (!isRecord(value)) return this.skip(position, "record is not a JSON object; skipped");
    return value;
  }

  /** Skips are tied to the file's session later (there is one session per file). */
  readonly skips: Array<{ line: number; message: string }> = [];
  private skip(line: number, message: string): undefined {
    this.skips.push({ line, message });
    return undefined;
  }

  metadata(key: string): unknown {
    const raw = rawValue(this.bytes, [key]);
    const text = raw ? decodeUtf8(raw) : undefined;
    if (text === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      // 1.x writes replay_config as a JSON string of the config.
      return typeof value === "string" && /^\s*\{/.test(value) ? JSON.parse(value) : value;
    } catch {
      return undefined;
    }
  }
}

/** Emits one stream's spans into the session, merging steps with their history entries. */
class StreamWriter {
  private cwd: string | undefined;

  constructor(
    private readonly collector: ImportCollector,
    private readonly draft: SessionDraft,
    private readonly stream: Stream,
  ) {}

  write(): void {
    const { steps, entries, info } = this.stream;
    for (const r of steps) this.check(r, STEP_FIELDS);
    for (const r of entries) this.check(r, ENTRY_FIELDS);
    if (info) this.check(info, INFO_FIELDS);
    const hasHistory = entries.some((e) => e.value);
    let next = 0;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const e = entry.value;
      if (!e) continue;
      if (e.is_demo === true || e.message_type === "demonstration") {
        this.message(entry.position, "demonstration", contentText(e.content), e);
        continue;
      }
      const role = str(e.role) ?? "user";
      const isAction = role === "assistant" && (e.message_type === "action" || "action" in e);
      if (!isAction) {
        this.message(entry.position, role, contentText(e.content), e);
        continue;
      }
      const following = entries[i + 1];
      const obsEntry = following?.value && isObservation(following.value) ? following : undefined;
      if (obsEntry) i++;
      const k = matchStep(steps, next, e);
      if (k >= 0) {
        for (let j = next; j < k; j++) this.step(steps, j, hasHistory);
        next = k + 1;
        this.act({ step: steps[k], entry, obsEntry, executed: true });
      } else {
        this.act({ entry, obsEntry, executed: true });
      }
    }
    for (let j = next; j < steps.length; j++) this.step(steps, j, hasHistory);
    if (this.stream.info?.value) this.info(this.stream.info);
  }

  /** A field of the wrong type loses what it held: the record is still used, its session incomplete. */
  private check(r: Rec, fields: Readonly<Record<string, (v: unknown) => boolean>>): void {
    if (!r.value) return;
    for (const [key, ok] of Object.entries(fields)) {
      const v = r.value[key];
      if (v !== undefined && !ok(v)) {
        this.collector.skip(r.position, `\`${key}\` is not of the type SWE-agent writes; its content is lost`, this.draft);
      }
    }
  }

  /** A step the history does not show (or a file without history). */
  private step(steps: Rec[], j: number, hasHistory: boolean): void {
    const s = steps[j]!;
    if (!s.value) return;
    const observation = str(s.value.observation) ?? "";
    const ran = !hasHistory ? undefined : observation.trim() !== "";
    const nextQuery = steps[j + 1]?.value?.query;
    const blocked = Array.isArray(nextQuery) && BLOCKED.test(contentText(lastOf(nextQuery)?.content));
    this.act({ step: s, ...(ran === undefined ? {} : { executed: ran }), blocked });
  }

  private act(a: { step?: Rec; entry?: Rec; obsEntry?: Rec; executed?: boolean; blocked?: boolean }): void {
    const sv = a.step?.value;
    const ev = a.entry?.value;
    const at = a.step?.position ?? a.entry!.position;
    const action = str(sv?.action) ?? str(ev?.action) ?? "";
    const thought = str(sv?.thought) || str(ev?.thought) || str(sv?.response) || contentText(ev?.content);
    const exitNotice = action.trim() === "" && /^Exit(?:ed)? due to /.test(thought);
    const before = this.cwd;
    const after = workingDirOf(sv?.state);
    if (after) {
      this.cwd = after;
      this.draft.cwd ??= after;
    }
    const cwd = before ?? after;
    const thinking = ev ? thinkingText(ev) : "";
    if (thinking !== "") this.span(at, { kind: "MESSAGE", role: "reasoning", body: utf8(thinking) });
    if (thought !== "") this.span(at, { kind: "MESSAGE", role: exitNotice ? "system" : "assistant", body: utf8(thought) });
    const calls: ToolCallShape[] = ev ? functionCalls(ev) : [];
    if (calls.length === 0 && action.trim() !== "" && action.trim() !== "exit") calls.push(commandLineCall(action));
    const drafts = calls.map((c) =>
      this.span(at, {
        kind: "TOOL_CALL",
        toolName: c.toolName,
        toolInput: c.toolInput,
        body: utf8(c.args),
        ...(c.sourceId ? { sourceId: c.sourceId } : {}),
        ...(cwd ? { cwd } : {}),
      }),
    );
    const observation = sv ? (str(sv.observation) ?? "") : undefined;
    const shown = a.obsEntry?.value ? contentText(a.obsEntry.value.content) : undefined;
    const call = drafts[0];
    if (call) {
      call.outcome = outcomeOf({
        ...(observation !== undefined ? { observation } : {}),
        ...(shown !== undefined ? { shown } : {}),
        ...(a.executed !== undefined ? { executed: a.executed } : {}),
        ...(a.blocked ? { blocked: true } : {}),
        toolName: call.toolName!,
      });
      for (const extra of drafts.slice(1)) extra.outcome = call.outcome;
    }
    const resultText = observation !== undefined && observation.trim() !== "" ? observation : shown;
    const resultAt = observation !== undefined && observation.trim() !== "" ? at : (a.obsEntry?.position ?? at);
    if (resultText !== undefined && resultText.trim() !== "") {
      this.span(
        resultAt,
        call
          ? { kind: "TOOL_RESULT", toolName: call.toolName!, body: utf8(resultText), ...(call.cwd ? { cwd: call.cwd } : {}) }
          : { kind: "MESSAGE", role: "system", body: utf8(resultText) },
      );
    }
    // Records merged into these spans, or that had nothing to show (an empty requery).
    for (const r of [a.step, a.entry, a.obsEntry]) if (r) this.collector.use(r.position);
  }

  private span(position: number, s: Omit<DraftSpan, "sourceLine">): DraftSpan {
    const agentId = this.stream.agentId;
    return this.draft.add({ ...s, sourceLine: position, ...(agentId ? { agentId } : {}) });
  }

  private message(position: number, role: string, text: string, e: Value): void {
    const thinking = thinkingText(e);
    if (thinking !== "") this.span(position, { kind: "MESSAGE", role: "reasoning", body: utf8(thinking) });
    if (text === "") {
      this.collector.use(position);
      return;
    }
    this.span(position, { kind: "MESSAGE", role, body: utf8(text) });
    if (role === "user" && this.draft.title === undefined) this.draft.title = issueTitle(text);
  }

  private info(rec: Rec): void {
    this.span(rec.position, { kind: "MESSAGE", role: "system", body: rec.raw.slice() });
  }
}

const isString = (v: unknown) => typeof v === "string";
const isStringOrNull = (v: unknown) => v === null || typeof v === "string";
const isListOrNull = (v: unknown) => v === null || Array.isArray(v);

const STEP_FIELDS = { action: isString, observation: isString, thought: isString, response: isString };
const ENTRY_FIELDS = {
  role: isString,
  content: (v: unknown) => typeof v === "string" || Array.isArray(v),
  thought: isString,
  action: isStringOrNull,
  tool_calls: isListOrNull,
  thinking_blocks: isListOrNull,
};
const INFO_FIELDS = { exit_status: isStringOrNull, submission: isStringOrNull };

function isObservation(e: Value): boolean {
  if (e.is_demo === true) return false;
  const role = str(e.role);
  return (role === "user" || role === "tool") && (e.message_type === undefined || e.message_type === "observation");
}

function lastOf(list: unknown[]): Value | undefined {
  const last = list[list.length - 1];
  return isRecord(last) ? last : undefined;
}

/**
 * The step recording the entry's act: the next one with the same action and the same thought or
 * response, else the very next step if its action is the same.
 */
function matchStep(steps: Rec[], from: number, e: Value): number {
  const action = str(e.action) ?? "";
  const thought = str(e.thought);
  const content = contentText(e.content);
  for (let k = from; k < steps.length; k++) {
    const s = steps[k]!.value;
    if (!s) continue;
    if ((str(s.action) ?? "") !== action) continue;
    if ((thought !== undefined && str(s.thought) === thought) || str(s.response) === content) return k;
  }
  // The next step with the same action, when its text was edited (curated demonstration files).
  const first = steps.slice(from).find((r) => r.value);
  return first?.value && (str(first.value.action) ?? "") === action && action.trim() !== "" ? steps.indexOf(first) : -1;
}

/** The issue's first line, from SWE-agent's instance template ("ISSUE:\n<text>"), else the first line. */
function issueTitle(text: string): string | undefined {
  const issue = /(?:^|\n)ISSUE:\s*\n?([^\n]*\S[^\n]*)/.exec(text);
  return titleFrom(issue ? issue[1]! : text);
}

function instanceId(replay: unknown): string | undefined {
  if (!isRecord(replay) || !isRecord(replay.problem_statement)) return undefined;
  const id = str(replay.problem_statement.id);
  return id && id.trim() !== "" ? id : undefined;
}

/** The top-level records that copy the chosen attempt: used (merged into it), not imported again. */
function dropCopies(top: Stream, attempt: Stream | undefined, reader: Reader): void {
  if (!attempt) return;
  const same = (a: Rec | undefined, b: Rec | undefined) =>
    a?.value !== undefined && b?.value !== undefined && JSON.stringify(a.value) === JSON.stringify(b.value);
  for (const key of ["steps", "entries"] as const) {
    top[key] = top[key].filter((r, i) => {
      if (!same(r, attempt[key][i])) return true;
      reader.collector.use(r.position);
      return false;
    });
  }
}

function wholeJson(bytes: Uint8Array): boolean {
  const text = decodeUtf8(bytes);
  if (text === undefined) return false;
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return true;
  } catch {
    return false;
  }
}

export function parseSweAgent(bytes: Uint8Array): ImportResult {
  const reader = new Reader(bytes);
  const { collector } = reader;
  const start = skipWs(bytes, bomLength(bytes));
  if (bytes[start] !== 0x7b) {
    collector.issue(0, "not a JSON object with `trajectory`/`history`; nothing imported");
    return collector.result();
  }
  const top = reader.stream([]);
  const attempts: Stream[] = [];
  const attemptsOpen = locate(bytes, ["attempts"]);
  if (attemptsOpen >= 0 && bytes[attemptsOpen] === 0x5b) {
    const count = splitArray(bytes, attemptsOpen).elements.length;
    for (let n = 0; n < count; n++) attempts.push(reader.stream(["attempts", n], `attempt_${n}`));
  }
  reader.number();
  if (!wholeJson(bytes)) {
    // Records are found by structure; past a break in it (a stray bracket, a cut) some may not be.
    collector.skip(0, "the file is not valid JSON as a whole: records past the damage may be missing");
  }
  const replay = reader.metadata("replay_config");
  const id = instanceId(replay);
  const draft = collector.session(id ?? `swe-agent:${contentId(bytes)}`);
  for (const s of reader.skips) collector.skip(s.line, s.message, draft);
  const best = top.info?.value?.best_attempt_idx;
  dropCopies(top, typeof best === "number" ? attempts[best] : attempts.length === 1 ? attempts[0] : undefined, reader);
  for (const a of attempts) new StreamWriter(collector, draft, a).write();
  new StreamWriter(collector, draft, top).write();
  if (isRecord(replay) && isRecord(replay.problem_statement) && draft.title === undefined) {
    const text = str(replay.problem_statement.text);
    if (text) draft.title = titleFrom(text);
  }
  if (!draft.isEmpty) collector.issue(0, "SWE-agent trajectories record no times; spans carry the epoch");
  return collector.result();
}

export const sweAgentImporter: TranscriptImporter = {
  format: "swe-agent",
  detect(head) {
    const opens = /^\uFEFF?\s*\{\s*"(?:trajectory|history|environment|attempts|info|replay_config)"\s*:/.test(head);
    if (!opens) return 0;
    const step = /"trajectory"\s*:\s*\[\s*\{\s*"(?:action|observation|response|thought)"\s*:\s*"/.test(head);
    const entry = /"history"\s*:\s*\[\s*\{\s*"(?:role|content|agent|message_type)"\s*:/.test(head);
    const env = /^\uFEFF?\s*\{\s*"environment"\s*:\s*"[^"]*"\s*,\s*"trajectory"\s*:/.test(head);
    if (step || env) return 0.9;
    if (entry) return 0.8;
    return /"attempts"\s*:\s*\[\s*\{\s*"(?:trajectory|history|info)"\s*:/.test(head) ? 0.8 : 0;
  },
  parse: parseSweAgent,
};
