/**
 * `custodian hook install claude-code|codex [--user] [--dry-run]`: merges Custodian's hook entries
 * into the runtime's settings without touching anyone else's hooks. Claude Code: .claude/settings.json
 * in the project (or ~/.claude/settings.json with --user). Codex: .codex/hooks.json (or
 * ~/.codex/hooks.json with --user), the same shape. An entry already there is updated in place.
 *
 * Given the server's address, Claude Code gets HTTP hooks (`type: "http"`, no process started at
 * each event) for the events that allow them, PreCompact, PostCompact, Stop, SubagentStop and
 * SessionEnd, and a process hook for SessionStart, which allows only command hooks. The key is never
 * written into the settings (a project's may be committed): the header names $CUSTODIAN_KEY, which
 * Claude Code fills from its environment (allowedEnvVars).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { AppError } from "@/lib/core/errors";
import type { HookRuntime } from "./hook";
import { hookBundlePath, projectRoot } from "./hook-paths";

interface HookCommand {
  type: "command";
  command: string;
  timeout?: number;
}
interface HookHttp {
  type: "http";
  url: string;
  headers: Record<string, string>;
  allowedEnvVars: string[];
  timeout?: number;
}
type HookHandler = HookCommand | HookHttp;
interface MatcherGroup {
  matcher?: string;
  /** Anyone's handlers: only Custodian's own are known in shape. */
  hooks: object[];
}
type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

/** The runtime's events, the matcher each needs, and the hook that answers it. */
/**
 * Stop and SessionEnd take no matcher in either runtime (none is written); SubagentStop's matches
 * the agent type ("" is every type); the compaction events' match the trigger ("" is both).
 */
const ENTRIES: Record<HookRuntime, Array<{ event: string; matcher?: string; hook: string }>> = {
  "claude-code": [
    { event: "PreCompact", matcher: "", hook: "pre-compact" },
    { event: "PostCompact", matcher: "", hook: "post-compact" },
    { event: "SessionStart", matcher: "compact", hook: "session-start" },
    { event: "Stop", hook: "stop" },
    { event: "SubagentStop", matcher: "", hook: "subagent-stop" },
    { event: "SessionEnd", hook: "session-end" },
  ],
  codex: [
    { event: "PreCompact", matcher: "", hook: "pre-compact" },
    { event: "PostCompact", matcher: "", hook: "post-compact" },
    { event: "SessionStart", matcher: "compact", hook: "session-start" },
    { event: "Stop", hook: "stop" },
    { event: "SubagentStop", matcher: "", hook: "subagent-stop" },
  ],
};

/** Seconds the runtime waits: above the hook's own limit, so the hook answers first. */
const RUNTIME_TIMEOUT_S = 15;

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * How the runtime runs this checkout's hooks from any directory: the plain JavaScript bundle
 * (`npm run build:hook`) under the Node that runs this installer, started through ./hook-launch.mjs
 * (which answers in one line if the bundle is gone later) and starting in about 0.1 s; without the
 * bundle, the TypeScript entry through tsx (about 2.4 s of compiling at every start).
 */
export function defaultCommand(root = projectRoot(), bundle = hookBundlePath(root)): string {
  const parts = existsSync(bundle)
    ? [process.execPath, join(root, "lib/cli/hook-launch.mjs"), bundle]
    : [join(root, "node_modules/.bin/tsx"), "--tsconfig", join(root, "tsconfig.json"), join(root, "lib/cli/hook-main.ts")];
  return parts.map(quote).join(" ");
}

export function settingsPath(runtime: HookRuntime, options: { user: boolean; cwd: string; home?: string }): string {
  const base = options.user ? (options.home ?? homedir()) : options.cwd;
  return runtime === "claude-code" ? join(base, ".claude", "settings.json") : join(base, ".codex", "hooks.json");
}

/** Claude Code's events that take HTTP hooks, of those Custodian answers (SessionStart takes only commands). */
export const HTTP_HOOK_EVENTS: ReadonlySet<string> = new Set(["PreCompact", "PostCompact", "Stop", "SubagentStop", "SessionEnd"]);
/** Where the server answers Claude Code's HTTP hooks. */
export const HTTP_HOOK_PATH = "/api/v1/hooks/claude-code";

/** The server for HTTP hooks, and whether a PreCompact hook blocks when Custodian cannot hold what it would drop. */
export interface HttpHookTarget {
  url: string;
  failClosed: boolean;
}

function httpHook(target: HttpHookTarget, event: string): HookHttp {
  const url = new URL(HTTP_HOOK_PATH, target.url);
  if (target.failClosed && event === "PreCompact") url.searchParams.set("failClosed", "1");
  return {
    type: "http",
    url: url.toString(),
    headers: { Authorization: "Bearer $CUSTODIAN_KEY" },
    allowedEnvVars: ["CUSTODIAN_KEY"],
    timeout: RUNTIME_TIMEOUT_S,
  };
}

/** One of Custodian's own handlers for this hook: its command, or (Claude Code) its HTTP hook. */
function isOurs(handler: Record<string, unknown>, runtime: HookRuntime, hook: string): boolean {
  if (typeof handler.command === "string") return handler.command.includes(` hook ${runtime} ${hook}`);
  if (runtime !== "claude-code" || handler.type !== "http" || typeof handler.url !== "string") return false;
  try {
    return new URL(handler.url).pathname === HTTP_HOOK_PATH;
  } catch {
    return false;
  }
}

/**
 * The settings with Custodian's entries merged in; everything else as it was. With `http`, Claude
 * Code's events that allow it get an HTTP hook in place of the command (and the other way round).
 */
export function mergeHooks(settings: Settings, runtime: HookRuntime, command: string, http?: HttpHookTarget): Settings {
  const hooks: Record<string, MatcherGroup[]> = { ...(settings.hooks ?? {}) };
  for (const entry of ENTRIES[runtime]) {
    const ours: HookHandler =
      http && runtime === "claude-code" && HTTP_HOOK_EVENTS.has(entry.event)
        ? httpHook(http, entry.event)
        : { type: "command", command: `${command} hook ${runtime} ${entry.hook}`, timeout: RUNTIME_TIMEOUT_S };
    const groups = (hooks[entry.event] ?? []).map((g) => ({ ...g, hooks: [...(g.hooks ?? [])] }));
    const mine = (h: object) => isOurs(h as Record<string, unknown>, runtime, entry.hook);
    const existing = groups.find((g) => g.hooks.some(mine));
    if (existing) {
      existing.hooks = existing.hooks.map((h) => (mine(h) ? ours : h));
    } else {
      groups.push({ ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}), hooks: [ours] });
    }
    hooks[entry.event] = groups;
  }
  return { ...settings, hooks };
}

export function installHooks(
  runtime: HookRuntime,
  options: { user: boolean; dryRun: boolean; cwd?: string; home?: string; command?: string; http?: HttpHookTarget },
): { path: string; before: string; after: string; written: boolean } {
  const path = settingsPath(runtime, { user: options.user, cwd: options.cwd ?? process.cwd(), home: options.home });
  const before = existsSync(path) ? readFileSync(path, "utf8") : "";
  let settings: Settings = {};
  if (before.trim() !== "") {
    try {
      settings = JSON.parse(before) as Settings;
    } catch {
      throw new AppError("VALIDATION_FAILED", `${path} is not valid JSON; fix it first, nothing was changed`);
    }
    if (typeof settings !== "object" || settings === null || Array.isArray(settings))
      throw new AppError("VALIDATION_FAILED", `${path} does not hold a JSON object; nothing was changed`);
  }
  const merged = mergeHooks(settings, runtime, options.command ?? defaultCommand(), options.http);
  const after = `${JSON.stringify(merged, null, 2)}\n`;
  if (options.dryRun || after === before) return { path, before, after, written: false };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, after);
  return { path, before, after, written: true };
}
