/**
 * Aider chat histories (`.aider.chat.history.md`, appended to by every run of Aider in a repo).
 * Records are the blocks ./aider-records defines (header, user input, reply, tool message or
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
 *   `Run pip install?` with its subject ("shell", the pip command) like a shell prompt; `/add`'s
 *   `Do you want to create P?` ("create_file", {path}).
 * - A command's own output (older versions wrote it) is its TOOL_RESULT; `Added N lines of output`
 *   after `/test` means the test failed (Aider adds it only on a non-zero exit).
 * - Every other tool message is kept as a MESSAGE with role "system" (consecutive ones merged).
 */
import { ImportCollector, type DraftSpan, type SessionDraft } from "./builder";
import { type AiderRecord, HEADER, PROMPT, isPromptText, readAiderRecords } from "./aider-records";
import type { ImportResult, TranscriptImporter } from "./types";
import { contentId, parseTimestamp, titleFrom, utf8 } from "./text";

/** Tool messages and inputs that carry no evidence, by type, with why. */
export const AIDER_IGNORED_RECORDS: Readonly<Record<string, string>> = {
  "blank-input": "`#### <blank>`: Enter pressed on an empty prompt",
  "token-report": "`Tokens: ... sent, ... received. Cost: ...`: usage and cost",
  "version-banner": "the start-up banner: version, models, git repo size, repo-map and mode settings",
  "repo-map-notice": "repo-map scanning notices",
  "interrupt-notice": "`^C again to exit`, `^C KeyboardInterrupt` and the empty quoted lines around them",
  "undo-hint": "`You can use /undo to undo and discard each aider commit.`",
  "clipboard-notice": "`Copied code context to clipboard.`",
  "chat-context": "`Added/Removed <file> to/from the chat`: which files the model sees, no file changes",
};

const IGNORED_TOOL_LINES: ReadonlyArray<[RegExp, string]> = [
  [/^Tokens: [\d.,]+k? sent/, "token-report"],
  [/^Cost estimates may be inaccurate/, "token-report"],
  [/^Aider v\d/, "version-banner"],
  [/^(Main model|Model|Weak model|Editor model|Git repo|Repo-map|Multiline mode|Cur working dir): /, "version-banner"],
  [/^Note: in-chat filenames are always relative to the git working dir/, "version-banner"],
  [/^Use \/help <question> for help/, "version-banner"],
  [/^Initial repo scan can be slow/, "repo-map-notice"],
  [/^Repo-map can't include /, "repo-map-notice"],
  [/^Has it been deleted from the file system but not from git\?$/, "repo-map-notice"],
  [/^$/, "interrupt-notice"],
  [/^\^C (again to exit|KeyboardInterrupt)$/, "interrupt-notice"],
  [/^You can use \/undo to undo and discard each aider commit\.$/, "undo-hint"],
  [/^Copied code context to clipboard\.$/, "clipboard-notice"],
  [/^Added (?!\d+ lines? of output).+ to the chat( \(read-only\))?\.?$/, "chat-context"],
  [/^Added .+ to read-only files\.$/, "chat-context"],
  [/^Removed (read-only file )?.+ from the chat$/, "chat-context"],
  [/^Dropping all files from the chat session\.$/, "chat-context"],
];

/** Fence languages Aider's edit parser runs as shell commands (editblock_coder's shell_starts). */
const SHELL_FENCE = /^```(bash|sh|shell|cmd|batch|powershell|ps1|zsh|fish|ksh|csh|tcsh)\b/;
const SEARCH_MARK = /^<{5,9} SEARCH\s*$/;

/** Aider's commands (prefixes resolve to a unique command, as Aider resolves them). */
const COMMANDS = (
  "add architect ask chat-mode clear code commit context copy copy-context diff drop edit editor editor-model exit " +
  "git help lint load ls map map-refresh model models multiline-mode ok paste quit read-only reasoning-effort report " +
  "reset run save settings test think-tokens tokens undo voice weak-model web"
).split(" ");

const EDIT_LINES: ReadonlyArray<[RegExp, "SUCCEEDED" | "FAILED" | "DECLINED" | "NOT_RUN"]> = [
  [/^Applied edit to (.+)$/, "SUCCEEDED"],
  [/^Did not apply edit to (.+) \(--dry-run\)$/, "NOT_RUN"],
  [/^Failed to apply edit to (.+)$/, "FAILED"],
  [/^Unable to create (.+), skipping edits\.$/, "FAILED"],
  [/^Skipping edits to (.+?)(?: that matches gitignore spec\.)?$/, "DECLINED"],
];

const UNDO_FAILED =
  /^(Unable to complete undo|No git repository found|This is the first commit in the repository|The last commit was not made by aider|The file .+ (has uncommitted changes|was not in the repository)|The repository has uncommitted changes|Error restoring|The last commit has already been pushed)/;

interface Proposal {
  commands: string[];
  calls: DraftSpan[];
  prompted: boolean;
}

interface Exec {
  calls: DraftSpan[];
  /** The call the next output or error belongs to. */
  current: DraftSpan;
  kind: "run" | "test" | "git" | "proposal" | "undo" | "create";
  gotResult: boolean;
}

class AiderReader {
  readonly collector = new ImportCollector("aider");
  private draft: SessionDraft | undefined;
  private startedAt: Date | undefined;
  private proposals: Proposal[] = [];
  private editPaths: string[] = [];
  private exec: Exec | undefined;
  private notice: DraftSpan | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly records: AiderRecord[],
  ) {}

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
      this.collector.issue(line, "records before any `# aider chat started at` header: no session time");
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

  private base(r: AiderRecord): { occurredAt: Date | undefined; sourceLine: number } {
    return { occurredAt: this.startedAt, sourceLine: r.line };
  }

  /** A turn ends: proposals never prompted were not run (UNKNOWN when the file ends first). */
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
  private command(text: string, r: AiderRecord, draft: SessionDraft, typed = true): boolean {
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

  private addNotice(r: AiderRecord, draft: SessionDraft, text: string): void {
    if (this.notice) {
      const joined = new Uint8Array(this.notice.body.length + 1 + utf8(text).length);
      joined.set(this.notice.body);
      joined[this.notice.body.length] = 0x0a;
      joined.set(utf8(text), this.notice.body.length + 1);
      this.notice.body = joined;
      this.collector.use(r.line);
      return;
    }
    this.notice = draft.add({ ...this.base(r), kind: "MESSAGE", role: "system", body: utf8(text) });
  }

  /** A call and its result from one tool message. */
  private callWithResult(
    r: AiderRecord,
    draft: SessionDraft,
    toolName: string,
    toolInput: Record<string, string>,
    outcome: DraftSpan["outcome"],
    result: string,
  ): DraftSpan {
    this.notice = undefined;
    const cwd = draft.cwd ? { cwd: draft.cwd } : {};
    const call = draft.add({
      ...this.base(r),
      kind: "TOOL_CALL",
      toolName,
      toolInput,
      body: utf8(JSON.stringify(toolInput)),
      outcome,
      ...cwd,
    });
    draft.add({ ...this.base(r), kind: "TOOL_RESULT", toolName, body: utf8(result), ...cwd });
    return call;
  }

  private effect(r: AiderRecord, draft: SessionDraft, first: string): boolean {
    if (r.lines.length === 1) {
      for (const [pattern, outcome] of EDIT_LINES) {
        const m = pattern.exec(first);
        if (m) {
          this.callWithResult(r, draft, "edit", { path: m[1]!.trim() }, outcome, first);
          return true;
        }
      }
      const commit = /^Commit ([0-9a-f]{7,40}) (.*)$/.exec(first);
      if (commit) {
        this.callWithResult(r, draft, "git_commit", { sha: commit[1]!, message: commit[2]! }, "SUCCEEDED", first);
        return true;
      }
      if (/^Added .+ to \.gitignore$/.test(first)) {
        this.callWithResult(r, draft, "edit", { path: ".gitignore" }, "SUCCEEDED", first);
        return true;
      }
      const created = /^Git repository created in (.+)$/.exec(first);
      if (created) {
        draft.cwd ??= created[1]!.trim();
        this.callWithResult(r, draft, "shell", { command: "git init" }, "SUCCEEDED", first);
        return true;
      }
    }
    const failed = [
      ...r.lines.join("\n").matchAll(/^## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in (.+)$/gm),
    ].map((m) => m[1]!.trim());
    if (failed.length === 0 && !/^# \d+ SEARCH\/REPLACE blocks? failed to match!/.test(first)) return false;
    const text = r.lines.join("\n");
    this.addNotice(r, draft, text);
    this.notice = undefined;
    for (const path of new Set(failed)) {
      draft.add({
        ...this.base(r),
        kind: "TOOL_CALL",
        toolName: "edit",
        toolInput: { path },
        body: utf8(JSON.stringify({ path })),
        outcome: "FAILED",
        ...(draft.cwd ? { cwd: draft.cwd } : {}),
      });
    }
    const others = /^# The other (\d+) SEARCH\/REPLACE blocks? (?:were|was) applied successfully\./m.exec(text);
    const passed = [...this.editPaths];
    for (const path of failed) {
      const at = passed.findIndex((p) => samePath(p, path));
      if (at >= 0) passed.splice(at, 1);
    }
    // Only when the reply's blocks account exactly for what Aider counted: never a guessed edit.
    if (others && Number(others[1]) === passed.length && passed.length + failed.length === this.editPaths.length) {
      for (const path of new Set(passed)) {
        draft.add({
          ...this.base(r),
          kind: "TOOL_CALL",
          toolName: "edit",
          toolInput: { path },
          body: utf8(JSON.stringify({ path })),
          outcome: "SUCCEEDED",
          ...(draft.cwd ? { cwd: draft.cwd } : {}),
        });
      }
    }
    return true;
  }

  /** Lines about a command being run: `Running X`, errors running it, output added for /test. */
  private execLine(r: AiderRecord, draft: SessionDraft, first: string, text: string): boolean {
    const running = /^Running (.+)$/.exec(first);
    if (running && r.lines.length === 1) {
      const command = running[1]!.trim();
      const exec = this.exec;
      const pending = exec?.kind === "proposal" ? exec.calls.find((c) => commandOf(c) === command) : undefined;
      this.notice = undefined;
      if (exec && pending) {
        this.collector.use(r.line);
        exec.current = pending;
        exec.gotResult = false;
        return true;
      }
      const call = draft.add({
        ...this.base(r),
        kind: "TOOL_CALL",
        toolName: "shell",
        toolInput: { command },
        body: utf8(command),
        outcome: "UNKNOWN",
        ...(draft.cwd ? { cwd: draft.cwd } : {}),
      });
      this.exec = { calls: [call], current: call, kind: "proposal", gotResult: false };
      return true;
    }
    if (/^Added \d+ lines? of output to the chat\.$/.test(first) && this.exec?.kind !== "test") return false;
    const exec = this.exec;
    if (!exec) {
      const executing = /^Executing: (.+)$/.exec(first);
      return executing !== null && r.lines.length === 1 && this.command(executing[1]!, r, draft, false);
    }
    const call = exec.current;
    if (/^Error (occurred while running command|running command|running \/git command)/.test(first)) {
      call.outcome = "FAILED";
      draft.add({ ...this.base(r), kind: "TOOL_RESULT", toolName: call.toolName, body: utf8(text) });
      exec.gotResult = true;
      return true;
    }
    if (exec.kind === "test" && /^Added \d+ lines? of output to the chat\.$/.test(first)) {
      // /test adds its output to the chat only when the command exited non-zero.
      call.outcome = "FAILED";
      this.addNotice(r, draft, text);
      return true;
    }
    if (exec.kind === "undo") {
      if (/^Removed: /.test(first)) call.outcome = "SUCCEEDED";
      else if (UNDO_FAILED.test(first)) call.outcome = "FAILED";
      else return false;
      draft.add({ ...this.base(r), kind: "TOOL_RESULT", toolName: "undo", body: utf8(text) });
      return true;
    }
    if (exec.kind === "create" && /^Error creating file /.test(first)) {
      call.outcome = "FAILED";
      draft.add({ ...this.base(r), kind: "TOOL_RESULT", toolName: call.toolName, body: utf8(text) });
      return true;
    }
    return false;
  }

  private prompt(r: AiderRecord, draft: SessionDraft, index: number): void {
    const m = PROMPT.exec(r.lines[0]!)!;
    const question = m[1]!;
    const answer = (m[3] ?? "").toLowerCase();
    const yes = answer.startsWith("y");
    const previous = this.records[index - 1];
    const subject = previous && previous.kind === "tool" && previous.endLine + 1 === r.line ? previous : undefined;
    this.notice = undefined;
    if (subjectPrompt(r)) {
      const commands = (subject?.lines ?? []).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
      if (subject) this.collector.use(subject.line);
      const key = commands.join("\n");
      const proposal = this.proposals.find((p) => !p.prompted && p.commands.join("\n") === key);
      let calls: DraftSpan[];
      if (proposal) {
        proposal.prompted = true;
        calls = proposal.calls;
        this.collector.use(r.line);
      } else {
        const at = subject ?? r;
        calls = (commands.length > 0 ? commands : [""]).map((command) =>
          draft.add({
            ...this.base(at),
            kind: "TOOL_CALL",
            toolName: "shell",
            toolInput: command ? { command } : {},
            body: utf8(command || r.lines[0]!),
            ...(draft.cwd ? { cwd: draft.cwd } : {}),
          }),
        );
        this.collector.use(r.line);
      }
      for (const c of calls) c.outcome = yes ? "UNKNOWN" : "DECLINED";
      if (yes) this.exec = { calls, current: calls[0]!, kind: "proposal", gotResult: false };
      return;
    }
    const create = /^No files matched '(.+)'\. Do you want to create (.+)\?$/.exec(question);
    if (create) {
      const path = create[2]!.trim();
      const call = this.callWithResult(r, draft, "create_file", { path }, yes ? "SUCCEEDED" : "DECLINED", r.lines[0]!);
      this.exec = { calls: [call], current: call, kind: "create", gotResult: false };
      return;
    }
    this.addNotice(r, draft, r.lines.join("\n"));
  }
}

/** A prompt to run commands, which names them in the message before it (its subject). */
function subjectPrompt(r: AiderRecord): boolean {
  if (r.kind !== "tool" || r.lines.length !== 1) return false;
  const m = PROMPT.exec(r.lines[0]!);
  return m !== null && /^Run (this shell command|shell commands?|pip install)\?$/.test(m[1]!);
}

function samePath(a: string, b: string): boolean {
  return a.replace(/\\/g, "/") === b.replace(/\\/g, "/");
}

function commandOf(call: DraftSpan): string | undefined {
  const input = call.toolInput as { command?: unknown } | undefined;
  return typeof input?.command === "string" ? input.command : undefined;
}

/** The command lines of each shell block of a reply, as Aider's edit parser reads them. */
function shellBlocks(lines: string[]): string[][] {
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SHELL_FENCE.test(lines[i]!.trim())) continue;
    if (SEARCH_MARK.test(lines[i + 1]?.trim() ?? "") || SEARCH_MARK.test(lines[i + 2]?.trim() ?? "")) continue;
    const commands: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trim().startsWith("```")) {
      const c = lines[j]!.trim();
      if (c !== "" && !c.startsWith("#")) commands.push(c);
      j++;
    }
    if (j < lines.length) blocks.push(commands);
    i = j;
  }
  return blocks;
}

/** The files a reply's SEARCH/REPLACE blocks name (the line before the block or its fence). */
function editBlockPaths(lines: string[]): string[] {
  const paths: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!SEARCH_MARK.test(lines[i]!.trim())) continue;
    for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
      const candidate = lines[k]!.trim();
      if (candidate === "" || candidate.startsWith("```")) continue;
      const path = candidate.replace(/^[`*#\s]+|[`*:\s]+$/g, "");
      if (path !== "" && !/\s/.test(path)) paths.push(path);
      break;
    }
  }
  return paths;
}

function lineOffsets(bytes: Uint8Array): number[] {
  const offsets = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) offsets.push(i + 1);
  return offsets;
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
