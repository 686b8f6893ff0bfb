/**
 * Aider chat histories (`.aider.chat.history.md`, appended to by every run of Aider in a repo).
 * Records are the blocks ./records defines (header, user input, reply, tool message or
 * prompt with its answer); each is used, ignored (AIDER_IGNORED_RECORDS) or skipped.
 *
 * Mapping:
 * - `# aider chat started at <time>` starts a session: externalId `aider:<time>:<content id of the
 *   session's text>` (the same text imported again is the same session), startedAt that time (Aider
 *   writes local time without a zone: read as UTC). Aider writes no other times, so every span of a
 *   session carries its start.
 * - `#### ` input is a user MESSAGE, except commands that execute something, which are TOOL_CALLs
 *   (body: the input as typed): `/run X` and `!X` and `/test X` (toolName "shell", {command: X}),
 *   `/git X` ("shell", {command: "git X"}), `/undo` ("undo": resets Aider's last commit). Context
 *   commands (/add, /drop, /read-only, /ls, /clear, /ask, /model...) change no file and stay
 *   messages. `<blank>` (Enter on an empty prompt) is ignored.
 * - A reply is an assistant MESSAGE. Each command line of a shell block in it (```bash, ```sh and
 *   the other languages Aider's edit parser takes as shell) is a TOOL_CALL ("shell", {command}),
 *   NOT_RUN until a `Run shell command(s)?` prompt for it says otherwise: answered `y` it ran
 *   (`Running X` lines confirm it; UNKNOWN, because Aider never writes an exit status to the
 *   history, FAILED when Aider reports it could not run it); any other answer (n, s = skip all,
 *   d = don't ask again, and the automatic `n` of --yes-always) is DECLINED. A block still unprompted
 *   when the file ends is UNKNOWN. A prompt whose command no reply proposed gets its own calls.
 * - Tool messages that record effects become TOOL_CALL + TOOL_RESULT: `Applied edit to P` ("edit",
 *   {path}) SUCCEEDED; `Did not apply edit to P (--dry-run)` NOT_RUN; `Failed to apply edit to P`,
 *   `Unable to create P, skipping edits.` and each `SearchReplaceNoExactMatch ... lines in P` of an
 *   edit-format error FAILED (the other blocks it reports "applied successfully" SUCCEEDED, for the
 *   files the reply's blocks name); `Skipping edits to P` DECLINED (a person or the gitignore
 *   refused it); `Commit <sha> <message>` ("git_commit", {sha, message}) SUCCEEDED; `Added <p> to
 *   .gitignore` ("edit" of .gitignore); `Git repository created in D` ("shell", git init);
 *   `Run pip install?` with its subject ("shell", the pip command) like a shell prompt, and so
 *   `/web`'s `Install playwright?` (the pip and playwright commands its subject names); `/add`'s
 *   `Do you want to create P?` ("create_file", {path}); the repo map's `Repo-map can't include P`
 *   (a file git tracks is gone from the disk: "deleted_from_file_system", {path}, SUCCEEDED).
 * - A command's own output (older versions wrote it) is its TOOL_RESULT; `Added N lines of output`
 *   after `/test` means the test failed (Aider adds it only on a non-zero exit).
 * - Every other tool message is kept as a MESSAGE with role "system" (consecutive ones merged).
 */
import type { SessionDraft } from "../shared/builder";
import { type AiderRecord, HEADER, isPromptText, readAiderRecords } from "./records";
import {
  AIDER_IGNORED_RECORDS,
  COMMANDS,
  IGNORED_TOOL_LINES,
  editBlockPaths,
  lineOffsets,
  shellBlocks,
  subjectPrompt,
} from "./text";
import { AiderToolReader } from "./tools";
import type { ImportResult, TranscriptImporter } from "../shared/types";
import { contentId, parseTimestamp, titleFrom, utf8 } from "../shared/text";

export { AIDER_IGNORED_RECORDS };

class AiderReader extends AiderToolReader {
  constructor(
    private readonly bytes: Uint8Array,
    records: AiderRecord[],
  ) {
    super(records);
  }

  read(): ImportResult {
    const ids = this.sessionIds();
    this.records.forEach((record, index) => {
      this.collector.read(record.line);
      this.record(record, index, ids);
    });
    this.endTurn(true);
    return this.collector.result();
  }

  /** Each header's session id: its time and a content id of the text up to the next header. */
  private sessionIds(): Map<number, string> {
    const ids = new Map<number, string>();
    const headers = this.records.filter((r) => r.kind === "header");
    const offsets = lineOffsets(this.bytes);
    const firstLine = this.records[0]?.line ?? 1;
    if (headers[0]?.line !== firstLine && this.records.length > 0) {
      const end = headers[0] ? offsets[headers[0].line - 1]! : this.bytes.length;
      ids.set(0, `aider:${contentId(this.bytes.subarray(0, end))}`);
    }
    headers.forEach((h, k) => {
      const start = offsets[h.line - 1]!;
      const next = headers[k + 1];
      const end = next ? offsets[next.line - 1]! : this.bytes.length;
      ids.set(h.line, `aider:${h.lines[0]}:${contentId(this.bytes.subarray(start, end))}`);
    });
    return ids;
  }

  private session(ids: Map<number, string>, line: number): SessionDraft {
    if (!this.draft) {
      this.draft = this.collector.session(ids.get(0) ?? `aider:${contentId(this.bytes)}`);
      // Aider writes the header first, at every start: without it the file begins after the session
      // did, and what the session did before is not here.
      this.collector.skip(
        line,
        "records before any `# aider chat started at` header: the history starts after its session began (no session time)",
        this.draft,
      );
    }
    return this.draft;
  }

  private record(r: AiderRecord, index: number, ids: Map<number, string>): void {
    if (r.kind === "header") {
      this.endTurn(false);
      this.draft = this.collector.session(ids.get(r.line)!);
      this.startedAt = parseTimestamp(r.lines[0]!.replace(" ", "T"));
      if (this.startedAt) this.draft.startedAt = this.startedAt;
      else this.collector.issue(r.line, `unreadable session time "${r.lines[0]}"`);
      this.collector.use(r.line);
      return;
    }
    const draft = this.session(ids, r.line);
    if (r.kind === "damaged") {
      this.notice = undefined;
      this.collector.skip(r.line, `lines ${r.line}-${r.endLine}: ${r.reason}`, draft);
      return;
    }
    if (r.kind === "user") return this.user(r, draft);
    if (r.kind === "assistant") return this.reply(r, draft);
    // A tool message that is the subject of the prompt right after it is read with that prompt.
    const next = this.records[index + 1];
    if (next && next.kind === "tool" && next.line === r.endLine + 1 && subjectPrompt(next)) return;
    this.tool(r, draft, index);
  }

  private endTurn(atEnd: boolean): void {
    for (const p of this.proposals) if (!p.prompted) for (const c of p.calls) c.outcome = atEnd ? "UNKNOWN" : "NOT_RUN";
    this.proposals = [];
    this.editPaths = [];
    this.exec = undefined;
    this.notice = undefined;
  }

  private user(r: AiderRecord, draft: SessionDraft): void {
    this.endTurn(false);
    const text = r.lines.join("\n");
    if (text.trim() === "<blank>") return this.collector.ignore(r.line, "blank-input");
    if (this.command(text, r, draft)) return;
    draft.add({ ...this.base(r), kind: "MESSAGE", role: "user", body: utf8(text) });
    if (draft.title === undefined && !text.trimStart().startsWith("/")) draft.title = titleFrom(text);
  }

  /** `/run`, `!`, `/test`, `/git`, `/undo`: a TOOL_CALL. Anything else is not a command here. */
  protected command(text: string, r: AiderRecord, draft: SessionDraft, typed = true): boolean {
    const trimmed = text.trim();
    let name: string | undefined;
    let args = "";
    if (trimmed.startsWith("!")) {
      name = "run";
      args = trimmed.slice(1).trim();
    } else {
      const m = /^\/(\S+)\s*([\s\S]*)$/.exec(trimmed);
      if (!m) return false;
      const word = m[1]!.toLowerCase();
      const matches = COMMANDS.filter((c) => c.startsWith(word));
      name = COMMANDS.includes(word) ? word : matches.length === 1 ? matches[0] : undefined;
      args = m[2]!.trim();
    }
    if (name !== "run" && name !== "test" && name !== "git" && name !== "undo") return false;
    if (name !== "undo" && args === "" && name !== "test") return false;
    const toolInput = name === "undo" ? {} : { command: name === "git" ? `git ${args}` : args };
    const call = draft.add({
      ...this.base(r),
      kind: "TOOL_CALL",
      toolName: name === "undo" ? "undo" : "shell",
      toolInput,
      body: utf8(typed ? text : trimmed),
      outcome: "UNKNOWN",
    });
    this.exec = { calls: [call], current: call, kind: name, gotResult: false };
    return true;
  }

  private reply(r: AiderRecord, draft: SessionDraft): void {
    this.notice = undefined;
    const text = r.lines.join("\n");
    draft.add({ ...this.base(r), kind: "MESSAGE", role: "assistant", body: utf8(text) });
    for (const commands of shellBlocks(r.lines)) {
      const calls = commands.map((command) =>
        draft.add({
          ...this.base(r),
          kind: "TOOL_CALL",
          toolName: "shell",
          toolInput: { command },
          body: utf8(command),
          outcome: "NOT_RUN",
          ...(draft.cwd ? { cwd: draft.cwd } : {}),
        }),
      );
      if (calls.length > 0) this.proposals.push({ commands, calls, prompted: false });
    }
    // A reflection's reply replaces the last one: only its blocks can be "the other blocks".
    this.editPaths = editBlockPaths(r.lines);
  }

  private tool(r: AiderRecord, draft: SessionDraft, index: number): void {
    const first = r.lines[0]!;
    const text = r.lines.join("\n");
    if (r.lines.length === 1) {
      for (const [pattern, type] of IGNORED_TOOL_LINES) {
        if (pattern.test(first)) {
          if (type !== "interrupt-notice") this.notice = undefined;
          return this.collector.ignore(r.line, type);
        }
      }
    }
    if (r.lines.length === 1 && isPromptText(first)) return this.prompt(r, draft, index);
    if (this.effect(r, draft, first)) return;
    if (this.execLine(r, draft, first, text)) return;
    const cwd = /^Git working dir: (.+)$/.exec(first);
    if (cwd && r.lines.length === 1) {
      draft.cwd = cwd[1]!.trim();
      this.collector.use(r.line);
      return;
    }
    const exec = this.exec;
    if (
      exec &&
      !exec.gotResult &&
      (exec.kind === "run" || exec.kind === "test" || exec.kind === "git" || exec.kind === "proposal")
    ) {
      // The command's own output (older versions wrote it, /git still does).
      exec.gotResult = true;
      const call = exec.current;
      draft.add({
        ...this.base(r),
        kind: "TOOL_RESULT",
        toolName: call.toolName,
        body: utf8(text),
        ...(call.cwd ? { cwd: call.cwd } : {}),
      });
      return;
    }
    this.addNotice(r, draft, text);
  }
}

export function parseAider(bytes: Uint8Array): ImportResult {
  return new AiderReader(bytes, readAiderRecords(bytes)).read();
}

export const aiderImporter: TranscriptImporter = {
  format: "aider",
  detect(head) {
    const text = head.replace(/^\uFEFF/, "");
    const header = new RegExp(HEADER.source, "m").test(text) && /^# aider chat started at \d{4}-\d\d-\d\d/m.test(text);
    const turns = (text.match(/^#### .* {2}\r?$/gm) ?? []).length;
    const quoted = (text.match(/^> .* {2}\r?$/gm) ?? []).length;
    if (header) return turns > 0 || quoted > 0 ? 0.95 : 0.85;
    // A history cut from its start: Aider's input and tool lines, each with the two-space break.
    return turns >= 1 && quoted >= 2 ? 0.6 : 0;
  },
  parse: parseAider,
};
