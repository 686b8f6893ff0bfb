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
import { ImportCollector } from "../shared/builder";
import { locate, rawValue, skipValue, skipWs, splitArray } from "../shared/json-scan";
import { type Rec, type Stream, StreamWriter, type Value } from "./stream";
import { bomLength, contentId, decodeUtf8, isRecord, str, titleFrom } from "../shared/text";
import type { ImportResult, TranscriptImporter } from "../shared/types";

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
