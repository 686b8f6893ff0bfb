/**
 * When a runtime's own cleanup deletes a local transcript. Claude Code deletes session files not
 * changed for `cleanupPeriodDays` (its settings.json; default 30) when it starts. Codex CLI and
 * Gemini CLI keep their sessions unless told otherwise, so none is predicted for them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { HookFormat } from "./hook-importers";

export const CLAUDE_DEFAULT_CLEANUP_DAYS = 30;
const DAY_MS = 86_400_000;

/** Claude Code's cleanupPeriodDays from `<config>/settings.json`, or its default. */
export function claudeCleanupDays(claudeConfigDir: string): number {
  try {
    const settings = JSON.parse(readFileSync(join(claudeConfigDir, "settings.json"), "utf8")) as { cleanupPeriodDays?: unknown };
    const days = settings?.cleanupPeriodDays;
    if (typeof days === "number" && Number.isFinite(days) && days >= 0) return days;
  } catch {
    // no settings, or not JSON: the runtime's default applies
  }
  return CLAUDE_DEFAULT_CLEANUP_DAYS;
}

/** When the runtime deletes a file last changed at `mtime`; null when it does not. */
export function deleteAt(runtime: HookFormat, mtime: Date, claudeDays: number): Date | null {
  return runtime === "claude-code" ? new Date(mtime.getTime() + claudeDays * DAY_MS) : null;
}
