/**
 * Where the runtimes keep their local transcripts, under a home folder, as their sources lay them out:
 *
 * - Claude Code: `<config>/projects/<encoded project path>/<session id>.jsonl`, a subagent's file as
 *   `<session id>/subagents/agent-<agent id>.jsonl` (older versions: `agent-<agent id>.jsonl` beside
 *   the session's); `<config>` is CLAUDE_CONFIG_DIR, else `~/.claude`.
 * - Codex CLI: `<codex home>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`; `<codex home>` is
 *   CODEX_HOME, else `~/.codex`.
 * - Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.json` (one document, versions before JSON
 *   Lines) or `session-*.jsonl` (current versions); `<project>` is a hash of the project path, or
 *   its short name in newer versions.
 */
import { readdirSync, type Dirent } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { HookFormat } from "./hook-importers";

export interface LocalTranscript {
  path: string;
  runtime: HookFormat;
  /** The session id the file's name gives (the reader falls back to the file's largest session). */
  sessionId: string;
}

export interface TranscriptRoots {
  claudeCode: string;
  codex: string;
  gemini: string;
}

/** The runtimes' folders under `home`; CLAUDE_CONFIG_DIR and CODEX_HOME move theirs, as in the runtimes. */
export function transcriptRoots(home: string, env: NodeJS.ProcessEnv = process.env): TranscriptRoots {
  return {
    claudeCode: env.CLAUDE_CONFIG_DIR || join(home, ".claude"),
    codex: env.CODEX_HOME || join(home, ".codex"),
    gemini: join(home, ".gemini"),
  };
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a runtime not installed, or a folder removed while read
  }
}

/** Files under `dir` (every depth) whose name passes `keep`, in a stable order. */
function walk(dir: string, keep: (name: string) => boolean, depth = 8): string[] {
  const found: string[] = [];
  for (const entry of entries(dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0) found.push(...walk(path, keep, depth - 1));
    else if (entry.isFile() && keep(entry.name)) found.push(path);
  }
  return found;
}

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function claudeSessionId(path: string): string {
  const stem = basename(path, ".jsonl");
  // `<session>/subagents/agent-<id>.jsonl` is the session a file import of it makes.
  if (stem.startsWith("agent-") && basename(dirname(path)) === "subagents")
    return `${basename(dirname(dirname(path)))}/agent-${stem.slice("agent-".length)}`;
  return stem;
}

export function discoverTranscripts(roots: TranscriptRoots): LocalTranscript[] {
  const claude = walk(join(roots.claudeCode, "projects"), (n) => n.endsWith(".jsonl")).map((path) => ({
    path,
    runtime: "claude-code" as const,
    sessionId: claudeSessionId(path),
  }));
  const codex = walk(join(roots.codex, "sessions"), (n) => n.startsWith("rollout-") && n.endsWith(".jsonl"), 4).map((path) => ({
    path,
    runtime: "codex" as const,
    sessionId: UUID_AT_END.exec(basename(path, ".jsonl"))?.[1] ?? basename(path, ".jsonl"),
  }));
  const gemini = entries(join(roots.gemini, "tmp"))
    .filter((e) => e.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((project) =>
      walk(join(roots.gemini, "tmp", project.name, "chats"), (n) => /^session-.*\.jsonl?$/.test(n), 0).map((path) => ({
        path,
        runtime: "gemini-cli" as const,
        sessionId: basename(path).replace(/\.jsonl?$/, ""),
      })),
    );
  return [...claude, ...codex, ...gemini];
}
