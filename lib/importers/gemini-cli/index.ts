/**
 * Gemini CLI sessions (google-gemini/gemini-cli, packages/core/src/services/chatRecordingService.ts).
 *
 * Two layouts, one record model (ConversationRecord: sessionId, projectHash, startTime, lastUpdated,
 * messages[], summary, directories, kind, memoryScratchpad):
 * - JSON Lines (`chats/session-*.jsonl`, current versions): a metadata line, then one line per
 *   message write. A message is appended again, whole, each time it changes (token counts, tool
 *   calls completing), so a message id can occur on many lines; `{"$set": {...}}` lines update
 *   metadata or replace the whole message list (history sync, compression); `{"$rewindTo": id}`
 *   lines record `/rewind`. Records are lines.
 * - One JSON document (`chats/session-*.json` of versions before the move to JSON Lines, and
 *   `/export-session` files). Records are the elements of `messages` (1-based index).
 *
 * Mapping (one session per file, external id = sessionId):
 * - `user` messages: their text is a "user" MESSAGE; `functionResponse` parts are tool results
 *   (Gemini CLI records each tool response turn as a user message too).
 * - `gemini` messages: each of `thoughts` is a "reasoning" MESSAGE, the text an "assistant"
 *   MESSAGE, each of `toolCalls` a TOOL_CALL (toolName = name, toolInput = args, body = the args
 *   JSON as the file holds it) followed by its TOOL_RESULT (the function response the model got,
 *   else `resultDisplay`); `functionCall` parts not in `toolCalls` are calls too. Outcomes from
 *   `status` and the response (see callOutcome): "success" SUCCEEDED unless the response is an
 *   error or the shell tool reports a non-zero exit code, a signal or its timeout (FAILED) or a move
 *   to the background (UNKNOWN); "error" FAILED, or DECLINED when the scheduler's error says policy,
 *   a BeforeTool hook or a non-interactive run refused it, or NOT_RUN for a tool it does not have;
 *   "cancelled" DECLINED (refused at confirmation), NOT_RUN (dropped from the queue) or UNKNOWN
 *   (interrupted); any other status UNKNOWN.
 * - A subagent's session (`kind` "subagent"): every span carries the subagent's id (its sessionId).
 * - `executableCode` / `codeExecutionResult` parts are kept as text of their message.
 * - `info`, `warning`, `error` messages (notices the CLI showed, recorded since late 2025) are
 *   "system" MESSAGEs: an error notice can be the only trace of a failure.
 * - Compression: a `$set` that replaces the message list with one holding a `<state_snapshot>`
 *   user message makes that message a SUMMARY replacing the messages the list dropped; a
 *   `<state_snapshot>` message whose replaced messages are not in the file is a SUMMARY without
 *   provenance.
 * - A message's spans come from its first recorded version (later versions may carry masked tool
 *   output); later versions add what it did not yet have (tool calls, results, thoughts). Rewound
 *   messages are kept: they happened.
 * - A message with a field of a type the recorder never writes, without `content`, or with a field
 *   the recorder never writes is reported against the session (what it held is not imported), and
 *   so is a document that is not valid JSON as a whole (its messages are read one by one).
 * Not read: `/chat save` checkpoints (`checkpoint-*.json`, a bare API history without session id
 * or times) and `logs.json` (the prompt history); neither is detected as this format.
 */
import { GeminiReader, type Version } from "./reader";
import { locate, rawValue, skipWs, splitArray } from "../shared/json-scan";
import { readJsonLines } from "../shared/jsonl";
import type { ImportResult, TranscriptImporter } from "../shared/types";
import { bomLength, contentId, decodeUtf8, isRecord, str, utf8 } from "../shared/text";

export { GEMINI_CLI_IGNORED_RECORDS } from "./reader";

/** JSON Lines: metadata, message versions, `$set` and `$rewindTo` records, each on its line. */
function parseLines(bytes: Uint8Array, reader: GeminiReader): ImportResult {
  const { collector } = reader;
  const lines = readJsonLines(bytes, collector);
  const head = lines.find((l) => typeof l.value.sessionId === "string" && typeof l.value.projectHash === "string");
  const setId = lines.find((l) => isRecord(l.value.$set) && typeof l.value.$set.sessionId === "string");
  const sessionId =
    str(head?.value.sessionId) ?? (setId && isRecord(setId.value.$set) ? str(setId.value.$set.sessionId) : undefined);
  reader.draft = collector.session(sessionId ?? `gemini-cli:${contentId(bytes)}`);
  for (const { line, bytes: lineBytes, value } of lines) {
    const at = (prefix: Array<string | number>, v: Record<string, unknown>): Version => ({
      line,
      bytes: lineBytes,
      prefix,
      value: v,
    });
    if (typeof value.$rewindTo === "string") {
      collector.use(line);
      reader.rewind(value.$rewindTo);
    } else if (isRecord(value.$set)) {
      collector.use(line);
      const { messages, ...rest } = value.$set;
      reader.meta = { ...reader.meta, ...rest };
      if (Array.isArray(messages)) reader.replaceList(listVersions(messages, ["$set", "messages"], at, reader));
    } else if (typeof value.id === "string") {
      reader.appended(at([], value));
    } else if (typeof value.sessionId === "string" && typeof value.projectHash === "string") {
      collector.use(line);
      const { messages, ...rest } = value;
      reader.meta = { ...reader.meta, ...rest };
      if (Array.isArray(messages)) for (const v of listVersions(messages, ["messages"], at, reader)) reader.appended(v);
    } else {
      collector.skip(line, "neither a message, session metadata, a `$set` update nor a `$rewindTo`; skipped", reader.draft);
    }
  }
  return reader.emit();
}

function listVersions(
  list: unknown[],
  prefix: Array<string | number>,
  at: (prefix: Array<string | number>, v: Record<string, unknown>) => Version,
  reader: GeminiReader,
): Version[] {
  const out: Version[] = [];
  list.forEach((m, k) => {
    const v = isRecord(m) && typeof m.id === "string" ? at([...prefix, k], m) : undefined;
    if (!v) {
      const line = at([], {}).line;
      return reader.collector.skip(line, `${prefix.join(".")}[${k}] is not a message with an id; skipped`, reader.draft);
    }
    reader.version(v);
    out.push(v);
  });
  return out;
}

/** Start of the `messages` array: by structure, else by its key where the structure is damaged. */
function messagesStart(bytes: Uint8Array, start: number): number {
  const at = locate(bytes, ["messages"], start);
  if (at >= 0 && bytes[at] === 0x5b) return at;
  const key = utf8('"messages"');
  for (let i = bytes.indexOf(key[0]!, start); i >= 0; i = bytes.indexOf(key[0]!, i + 1)) {
    if (!key.every((b, k) => bytes[i + k] === b)) continue;
    let j = skipWs(bytes, i + key.length);
    if (bytes[j] !== 0x3a) continue;
    j = skipWs(bytes, j + 1);
    if (bytes[j] === 0x5b) return j;
  }
  return -1;
}

/** One JSON document: its metadata, and each element of `messages` as a record. */
function parseDocument(bytes: Uint8Array, start: number, reader: GeminiReader): ImportResult {
  const { collector } = reader;
  const whole = parseJson(bytes);
  if (isRecord(whole)) {
    const { messages: _messages, ...meta } = whole;
    reader.meta = meta;
  } else {
    // A damaged document still yields its readable messages; its metadata comes field by field.
    for (const key of ["sessionId", "summary"]) {
      const raw = rawValue(bytes, [key]);
      const value = raw ? parseJson(raw) : undefined;
      if (typeof value === "string") reader.meta[key] = value;
    }
  }
  reader.draft = collector.session(str(reader.meta.sessionId) ?? `gemini-cli:${contentId(bytes)}`);
  if (whole === undefined) {
    // Damage between the messages (a broken bracket, a lost comma) can end the list early or
    // hide a message from the element reader: nothing may be concluded from what is missing.
    collector.read(0);
    collector.skip(0, "the document is not valid JSON as a whole; its messages were read one by one", reader.draft);
  }
  const open = messagesStart(bytes, start);
  if (open < 0) {
    collector.read(0);
    collector.skip(0, "no `messages` array found in the document; nothing imported", reader.draft);
    return collector.result();
  }
  const { elements, closed } = splitArray(bytes, open);
  elements.forEach((el, index) => {
    const at = index + 1;
    collector.read(at);
    const slice = bytes.subarray(el.start, el.end);
    const decoded = decodeUtf8(slice);
    if (decoded === undefined) return collector.skip(at, "invalid UTF-8 in message; skipped", reader.draft);
    let value: unknown;
    try {
      value = JSON.parse(decoded);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return collector.skip(
        at,
        el.complete ? `malformed message JSON (${detail}); skipped` : "truncated message at the end of the file; skipped",
        reader.draft,
      );
    }
    if (!isRecord(value)) return collector.skip(at, "message is not a JSON object; skipped", reader.draft);
    reader.appended({ line: at, bytes: slice, prefix: [], value });
  });
  if (!closed) collector.skip(0, "the file ends before its message list closes; messages may be missing", reader.draft);
  return reader.emit();
}

function parseJson(raw: Uint8Array): unknown {
  const text = decodeUtf8(raw);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A pretty-printed document opens with a line holding only `{` and never has a whole JSON object
 * with keys on one line; JSON Lines has one on each line (a damaged first line does not hide the rest).
 */
function isDocument(bytes: Uint8Array, start: number): boolean {
  let from = start;
  for (let seen = 0; seen < 6 && from < bytes.length; ) {
    const end = bytes.indexOf(0x0a, from);
    const line = decodeUtf8(bytes.subarray(from, end < 0 ? bytes.length : end))?.trim() ?? "";
    from = end < 0 ? bytes.length : end + 1;
    if (line === "") continue;
    if (seen === 0 && line !== "{") return false;
    seen++;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value) && Object.keys(value).length > 0) return false;
    } catch {
      // Not a whole object on this line: look at the next.
    }
  }
  return true;
}

export function parseGeminiCli(bytes: Uint8Array): ImportResult {
  const reader = new GeminiReader();
  const start = skipWs(bytes, bomLength(bytes));
  if (!isDocument(bytes, start)) return parseLines(bytes, reader);
  return parseDocument(bytes, start, reader);
}

export const geminiCliImporter: TranscriptImporter = {
  format: "gemini-cli",
  detect(head) {
    // Every session file opens with its metadata: sessionId and projectHash (Claude Code records
    // carry sessionId and "type":"user" too, so projectHash is what tells them apart).
    const meta = /"sessionId"\s*:/.test(head) && /"projectHash"\s*:\s*"/.test(head);
    if (meta && (/"(messages|startTime|lastUpdated)"\s*:/.test(head) || /"type"\s*:\s*"(user|gemini)"/.test(head))) return 0.95;
    const messages = /"type"\s*:\s*"gemini"/.test(head) && /"(toolCalls|thoughts|tokens)"\s*:/.test(head);
    return messages ? 0.6 : 0;
  },
  parse: parseGeminiCli,
};
