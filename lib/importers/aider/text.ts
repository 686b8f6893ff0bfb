/** Aider history vocabulary: what its tool lines say, how replies propose commands and edits. */
import type { DraftSpan } from "../shared/builder";
import { type AiderRecord, PROMPT } from "./records";
/**
 * Tool messages and inputs that carry no evidence, by type, with why and where Aider writes them
 * (checked against Aider-AI/aider: aider/io.py, aider/coders/base_coder.py, aider/commands.py,
 * aider/repomap.py, aider/main.py). None reports a file written or deleted, a commit or a command run.
 */
export const AIDER_IGNORED_RECORDS: Readonly<Record<string, string>> = {
  "blank-input": "`#### <blank>`: Enter pressed on an empty prompt (io.py writes `<blank>` for it)",
  "token-report":
    "`Tokens: ... sent, ... received. Cost: ...`: usage and cost (base_coder.py's tokens_report; main.py's cost warning)",
  "version-banner":
    "the start-up banner: version, models, git repo size, repo-map and mode settings (base_coder.py's announcements)",
  "repo-map-notice":
    "repo-map scanning notices (repomap.py; `Repo-map can't include P`, which names a file gone from the disk, is evidence: a deletion)",
  "interrupt-notice": "`^C again to exit`, `^C KeyboardInterrupt` and the empty quoted lines around them (base_coder.py)",
  "undo-hint": "`You can use /undo to undo and discard each aider commit.` (base_coder.py, after an auto-commit, itself read)",
  "clipboard-notice": "`Copied code context to clipboard.` (commands.py, /copy-context)",
  "chat-context":
    "`Added/Removed <file> to/from the chat`: which files the model sees, no file changes (commands.py /add /drop, base_coder.py)",
};

export const IGNORED_TOOL_LINES: ReadonlyArray<[RegExp, string]> = [
  [/^Tokens: [\d.,]+k? sent/, "token-report"],
  [/^Cost estimates may be inaccurate/, "token-report"],
  [/^Aider v\d/, "version-banner"],
  [/^(Main model|Model|Weak model|Editor model|Git repo|Repo-map|Multiline mode|Cur working dir): /, "version-banner"],
  [/^Note: in-chat filenames are always relative to the git working dir/, "version-banner"],
  [/^Use \/help <question> for help/, "version-banner"],
  [/^Initial repo scan can be slow/, "repo-map-notice"],
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
export const SHELL_FENCE = /^```(bash|sh|shell|cmd|batch|powershell|ps1|zsh|fish|ksh|csh|tcsh)\b/;
export const SEARCH_MARK = /^<{5,9} SEARCH\s*$/;

/** Aider's commands (prefixes resolve to a unique command, as Aider resolves them). */
export const COMMANDS = (
  "add architect ask chat-mode clear code commit context copy copy-context diff drop edit editor editor-model exit " +
  "git help lint load ls map map-refresh model models multiline-mode ok paste quit read-only reasoning-effort report " +
  "reset run save settings test think-tokens tokens undo voice weak-model web"
).split(" ");

export const EDIT_LINES: ReadonlyArray<[RegExp, "SUCCEEDED" | "FAILED" | "DECLINED" | "NOT_RUN"]> = [
  [/^Applied edit to (.+)$/, "SUCCEEDED"],
  [/^Did not apply edit to (.+) \(--dry-run\)$/, "NOT_RUN"],
  [/^Failed to apply edit to (.+)$/, "FAILED"],
  [/^Unable to create (.+), skipping edits\.$/, "FAILED"],
  [/^Skipping edits to (.+?)(?: that matches gitignore spec\.)?$/, "DECLINED"],
];

export const UNDO_FAILED =
  /^(Unable to complete undo|No git repository found|This is the first commit in the repository|The last commit was not made by aider|The file .+ (has uncommitted changes|was not in the repository)|The repository has uncommitted changes|Error restoring|The last commit has already been pushed)/;

export interface Proposal {
  commands: string[];
  calls: DraftSpan[];
  prompted: boolean;
}

export interface Exec {
  calls: DraftSpan[];
  /** The call the next output or error belongs to. */
  current: DraftSpan;
  kind: "run" | "test" | "git" | "proposal" | "undo" | "create";
  gotResult: boolean;
}

/** A prompt to run commands, which names them in the message before it (its subject). */
export function subjectPrompt(r: AiderRecord): boolean {
  if (r.kind !== "tool" || r.lines.length !== 1) return false;
  const m = PROMPT.exec(r.lines[0]!);
  return m !== null && /^(Run (this shell command|shell commands?|pip install)|Install playwright)\?$/.test(m[1]!);
}

/**
 * The commands a prompt's subject names: its lines, but for the prose around the commands of
 * `/web`'s offer to install Playwright ("For the best web scraping, install Playwright:", the
 * commands, "See <url> for more info.").
 */
export function subjectCommands(lines: readonly string[]): string[] {
  return lines
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
    .filter((l) => !/^For the best web scraping, install Playwright:$/.test(l) && !/^See \S+ for more info\.$/.test(l));
}

export function samePath(a: string, b: string): boolean {
  return a.replace(/\\/g, "/") === b.replace(/\\/g, "/");
}

export function commandOf(call: DraftSpan): string | undefined {
  const input = call.toolInput as { command?: unknown } | undefined;
  return typeof input?.command === "string" ? input.command : undefined;
}

/** The command lines of each shell block of a reply, as Aider's edit parser reads them. */
export function shellBlocks(lines: string[]): string[][] {
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
export function editBlockPaths(lines: string[]): string[] {
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

export function lineOffsets(bytes: Uint8Array): number[] {
  const offsets = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) offsets.push(i + 1);
  return offsets;
}
