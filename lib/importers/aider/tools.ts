/**
 * The tool messages of an Aider history that record what was done: prompts with their answers,
 * `Running` lines, edits, commits and errors (see ./index for the mapping). The session and turn
 * logic that drives it is AiderReader in ./index.
 */
import { type DraftSpan, ImportCollector, type SessionDraft } from "../shared/builder";
import { type AiderRecord, PROMPT } from "./records";
import { EDIT_LINES, type Exec, type Proposal, UNDO_FAILED, commandOf, samePath, subjectCommands, subjectPrompt } from "./text";
import { utf8 } from "../shared/text";

export abstract class AiderToolReader {
  protected readonly collector = new ImportCollector("aider");
  protected draft: SessionDraft | undefined;
  protected startedAt: Date | undefined;
  protected proposals: Proposal[] = [];
  protected editPaths: string[] = [];
  protected exec: Exec | undefined;
  protected notice: DraftSpan | undefined;

  constructor(protected readonly records: AiderRecord[]) {}

  /** `/run`, `!`, `/test`, `/git`, `/undo` typed (or run by /load): a TOOL_CALL, or false. */
  protected abstract command(text: string, r: AiderRecord, draft: SessionDraft, typed?: boolean): boolean;

  protected base(r: AiderRecord): { occurredAt: Date | undefined; sourceLine: number } {
    return { occurredAt: this.startedAt, sourceLine: r.line };
  }

  /** A turn ends: proposals never prompted were not run (UNKNOWN when the file ends first). */
  protected addNotice(r: AiderRecord, draft: SessionDraft, text: string): void {
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
  protected callWithResult(
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

  protected effect(r: AiderRecord, draft: SessionDraft, first: string): boolean {
    if (r.lines.length === 1) {
      for (const [pattern, outcome] of EDIT_LINES) {
        const m = pattern.exec(first);
        if (m) {
          this.callWithResult(r, draft, "edit", { path: m[1]!.trim() }, outcome, first);
          return true;
        }
      }
      // The repo map found a file git tracks missing from the disk (aider/repomap.py): it was deleted.
      const gone = /^Repo-map can't include (.+)$/.exec(first);
      if (gone) {
        this.callWithResult(r, draft, "deleted_from_file_system", { path: gone[1]!.trim() }, "SUCCEEDED", first);
        return true;
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
  protected execLine(r: AiderRecord, draft: SessionDraft, first: string, text: string): boolean {
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

  protected prompt(r: AiderRecord, draft: SessionDraft, index: number): void {
    const m = PROMPT.exec(r.lines[0]!)!;
    const question = m[1]!;
    const answer = (m[3] ?? "").toLowerCase();
    const yes = answer.startsWith("y");
    const previous = this.records[index - 1];
    const subject = previous && previous.kind === "tool" && previous.endLine + 1 === r.line ? previous : undefined;
    this.notice = undefined;
    if (subjectPrompt(r)) {
      const commands = subjectCommands(subject?.lines ?? []);
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
