/**
 * Splits an Aider chat history (`.aider.chat.history.md`) into records, the unit every Aider
 * import accounts for. Aider appends to the file through one function (`InputOutput.
 * append_chat_history`), and that function decides the shapes a record can take:
 *
 * - header: `# aider chat started at <YYYY-MM-DD HH:MM:SS>` (preceded and followed by a blank
 *   line), written once per run of Aider: a new session.
 * - user: one user input, a run of `#### ` lines (each input line prefixed, each ending in the
 *   two-space markdown line break Aider appends).
 * - tool: one message Aider printed (tool_output, tool_error, tool_warning) or one confirmation
 *   prompt with its answer: a line `> <text>` ending in the two-space line break. A message of
 *   several lines (a shell command's output in older versions, a multi-line prompt subject, an
 *   edit-format error) is quoted on its first line only: its other lines follow unquoted, up to
 *   the line that ends with the line break.
 * - assistant: one reply of the model, plain text that Aider writes after a blank line and
 *   follows with a blank line.
 *
 * Blank lines are separators, not records. Damage that the shapes expose becomes a `damaged`
 * record with its reason (the importer skips it): a line that is not valid UTF-8, a user or tool
 * record without its closing line break (a cut line), plain text where only a prefixed line can
 * stand (a prefix lost to corruption).
 */
import { bomLength } from "../shared/text";

export type AiderRecordKind = "header" | "user" | "tool" | "assistant" | "damaged";

export interface AiderRecord {
  kind: AiderRecordKind;
  /** 1-based line of the record's first line: its id in the import's accounting. */
  line: number;
  /** 1-based line of its last line. */
  endLine: number;
  /** The record's text lines without Aider's markup (`#### `, `> `, the trailing line break). */
  lines: string[];
  /** damaged records only: why. */
  reason?: string;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true });
const lenientDecoder = new TextDecoder("utf-8");

interface RawLine {
  text: string;
  valid: boolean;
}

export const HEADER = /^# aider chat started at (.*)$/;
const USER = /^####(?: |$)/;
const QUOTE = /^>(?: |$)/;
/** A confirmation prompt with its answer: the question, Aider's options, and the answer. */
export const PROMPT = /^(.*?\?)(?: (\(Y\)es\/\(N\)o(?:\/\([A-Za-z]\)[^[]*?)*) \[[^\]]*\]:| \[[Yy]\/[Nn]\])? ?(\S*)$/;
const OPTIONS = /\(Y\)es\/\(N\)o|\[[Yy]\/[Nn]\]/;

function rawLines(bytes: Uint8Array): RawLine[] {
  const out: RawLine[] = [];
  let start = bomLength(bytes);
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    let stop = end;
    if (stop > start && bytes[stop - 1] === 0x0d) stop--;
    const slice = bytes.subarray(start, stop);
    try {
      out.push({ text: strictDecoder.decode(slice), valid: true });
    } catch {
      out.push({ text: lenientDecoder.decode(slice), valid: false });
    }
    if (end === bytes.length) break;
    start = end + 1;
  }
  // A final newline leaves an empty last line, which is no line of the file.
  if (out.length > 0 && out[out.length - 1]!.text === "" && bytes[bytes.length - 1] === 0x0a) out.pop();
  return out;
}

/** Ends with Aider's two-space line break. */
function marked(text: string): boolean {
  return text.endsWith("  ");
}

function unmark(text: string): string {
  return text.endsWith("  ") ? text.slice(0, -2) : text;
}

function isBlank(text: string): boolean {
  return text.trim() === "";
}

function isPrefixed(text: string): boolean {
  return USER.test(text) || QUOTE.test(text) || HEADER.test(text);
}

/** Whether the user and tool lines of this file carry the line break (editors may strip it). */
function usesLineBreaks(lines: RawLine[]): boolean {
  let prefixed = 0;
  let withBreak = 0;
  for (const l of lines) {
    if (USER.test(l.text) || QUOTE.test(l.text)) {
      prefixed++;
      if (marked(l.text)) withBreak++;
    }
  }
  return prefixed > 0 && withBreak / prefixed >= 0.6;
}

export function isPromptText(text: string): boolean {
  return OPTIONS.test(text) && PROMPT.test(text);
}

export function readAiderRecords(bytes: Uint8Array): AiderRecord[] {
  const lines = rawLines(bytes);
  const breaks = usesLineBreaks(lines);
  const records: AiderRecord[] = [];
  let i = 0;
  let previous: AiderRecordKind | "blank" = "blank";

  const push = (record: AiderRecord) => {
    const invalid = lines.slice(record.line - 1, record.endLine).some((l) => !l.valid);
    records.push(invalid ? { ...record, kind: "damaged", reason: "invalid UTF-8; record skipped" } : record);
  };

  while (i < lines.length) {
    const text = lines[i]!.text;
    if (isBlank(text) && lines[i]!.valid) {
      previous = "blank";
      i++;
      continue;
    }
    const line = i + 1;
    const header = HEADER.exec(text);
    if (header) {
      push({ kind: "header", line, endLine: line, lines: [header[1]!.trim()] });
      previous = "header";
      i++;
      continue;
    }
    if (USER.test(text) && !(breaks && previous === "blank" && unmarkedRun(lines, i))) {
      const body: string[] = [];
      let j = i;
      let cut = false;
      while (j < lines.length && USER.test(lines[j]!.text)) {
        const t = lines[j]!.text;
        if (breaks && !marked(t)) cut = true;
        body.push(unmark(t).replace(/^#### ?/, ""));
        j++;
      }
      const record: AiderRecord = { kind: "user", line, endLine: j, lines: body };
      push(
        cut
          ? { ...record, kind: "damaged", reason: "user input without its closing line break (cut or damaged); skipped" }
          : record,
      );
      previous = "user";
      i = j;
      continue;
    }
    if (QUOTE.test(text)) {
      const end = quotedEnd(lines, i, breaks);
      const body = [text.replace(/^> ?/, ""), ...lines.slice(i + 1, end.end).map((l) => l.text)];
      body[body.length - 1] = unmark(body[body.length - 1]!);
      body[0] = unmark(body[0]!);
      const record: AiderRecord = { kind: "tool", line, endLine: end.end, lines: body };
      if (breaks && !end.closed) {
        push({ ...record, kind: "damaged", reason: "tool output without its closing line break (cut or damaged); skipped" });
      } else push(record);
      previous = "tool";
      i = end.end;
      continue;
    }
    // Plain text: a reply after a blank line; anywhere else only a prefix lost to damage explains it.
    if (previous === "blank" || previous === "header" || !breaks) {
      const end = replyEnd(lines, i, breaks);
      push({ kind: "assistant", line, endLine: end.end, lines: lines.slice(i, end.end).map((l) => l.text) });
      if (end.damagedFrom !== undefined) {
        // The reply ran straight into a prefixed line: its last paragraph lost a prefix.
        const last = records[records.length - 1]!;
        if (end.damagedFrom > i) {
          last.endLine = end.damagedFrom;
          last.lines = lines.slice(i, end.damagedFrom).map((l) => l.text);
          while (last.lines.length > 0 && isBlank(last.lines[last.lines.length - 1]!)) {
            last.lines.pop();
            last.endLine--;
          }
          records.push({
            kind: "damaged",
            line: end.damagedFrom + 1,
            endLine: end.end,
            lines: lines.slice(end.damagedFrom, end.end).map((l) => l.text),
            reason: "text directly before a prefixed line, where Aider writes a blank line (a lost prefix?); skipped",
          });
        } else {
          last.kind = "damaged";
          last.reason = "text directly before a prefixed line, where Aider writes a blank line (a lost prefix?); skipped";
        }
      }
      previous = "assistant";
      i = end.end;
      continue;
    }
    records.push({
      kind: "damaged",
      line,
      endLine: line,
      lines: [text],
      reason: `text without a prefix directly after a ${previous} record, where Aider writes only prefixed lines (a lost prefix?); skipped`,
    });
    i++;
  }
  // Aider ends every write with a line break: a file whose last line has none was cut inside it,
  // and its last record (a reply, which has no closing mark of its own) lost its end.
  const last = records[records.length - 1];
  if (last && last.kind !== "damaged" && bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a && last.endLine === lines.length)
    records[records.length - 1] = {
      ...last,
      kind: "damaged",
      reason: "the file ends inside this record's last line (cut); skipped",
    };
  return records;
}

/** A run of `#### ` lines none of which has the line break: the model's markdown, not user input. */
function unmarkedRun(lines: RawLine[], i: number): boolean {
  for (let j = i; j < lines.length && USER.test(lines[j]!.text); j++) if (marked(lines[j]!.text)) return false;
  return true;
}

/**
 * Where a quoted record that starts at `i` ends (exclusive), and whether it ended with its line
 * break. Unquoted lines after the first belong to it while it is still open (no line break yet),
 * and, after a closed first line, only when they run into a confirmation prompt (a multi-line
 * prompt subject whose padded lines end in spaces).
 */
function quotedEnd(lines: RawLine[], i: number, breaks: boolean): { end: number; closed: boolean } {
  const first = lines[i]!.text;
  if (!breaks) {
    let j = i + 1;
    while (j < lines.length && !isBlank(lines[j]!.text) && !isPrefixed(lines[j]!.text)) j++;
    return { end: j, closed: true };
  }
  // A multi-line prompt subject is padded to its longest line (confirm_ask: `line.ljust(width)`),
  // the whole stripped and quoted on its first line: every line but the last is `width` long
  // (a command block's empty lines become lines of spaces), the last carries the line break.
  const width = first.length - 2;
  const padded = (t: string) => t.length === width && (marked(t) || isBlank(t));
  const plainNext = (j: number) => j + 1 < lines.length && lines[j + 1]!.text !== "" && !isPrefixed(lines[j + 1]!.text);
  if (marked(first)) {
    // A padded first line: its subject runs to the line break, then Aider writes a quoted prompt,
    // an error about the answer, or the answer a group gave as input.
    let j = i + 1;
    while (j < lines.length && padded(lines[j]!.text) && plainNext(j)) j++;
    const last = lines[j]?.text ?? "";
    const next = lines[j + 1]?.text;
    if (j > i && j < lines.length && !isPrefixed(last) && marked(last) && !isBlank(last) && last.length <= width + 2)
      if (next !== undefined && (QUOTE.test(next) || USER.test(next))) return { end: j + 1, closed: true };
    return { end: i + 1, closed: true };
  }
  let j = i + 1;
  while (j < lines.length) {
    const t = lines[j]!.text;
    if (isPrefixed(t)) break;
    // A padded line of a subject, or one of its padded empty lines, goes on to the next line.
    if (marked(t) && !(padded(t) && plainNext(j))) return { end: j + 1, closed: true };
    j++;
  }
  let end = j;
  while (end > i + 1 && isBlank(lines[end - 1]!.text)) end--;
  return { end, closed: false };
}

/**
 * Where a reply that starts at `i` ends (exclusive): before the next header, user line or closed
 * tool record. A quoted or `#### ` line inside a reply (the model's own markdown) does not end it
 * unless it carries Aider's line break.
 */
function replyEnd(lines: RawLine[], i: number, breaks: boolean): { end: number; damagedFrom?: number } {
  let j = i + 1;
  while (j < lines.length) {
    const t = lines[j]!.text;
    if (HEADER.test(t)) break;
    if (USER.test(t) && (!breaks || marked(t))) break;
    if (QUOTE.test(t) && (!breaks || quotedEnd(lines, j, breaks).closed)) break;
    j++;
  }
  let end = j;
  while (end > i && isBlank(lines[end - 1]!.text)) end--;
  if (breaks && j < lines.length && end === j) {
    // No blank line between the reply and what follows: its last paragraph is damaged.
    let k = end;
    while (k > i && !isBlank(lines[k - 1]!.text)) k--;
    return { end, damagedFrom: k };
  }
  return { end };
}
