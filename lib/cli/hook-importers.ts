/**
 * The one importer a hook needs, loaded when it is needed. A hook is a new process at every
 * compaction, so what it loads is paid each time: every format's importer, and zod (which only
 * Claude Code's records are checked with), were most of a hook's start-up. The bundle keeps each
 * importer in a chunk of its own (./hook-build.ts), loaded by these imports.
 */
import type { ImportFormat, TranscriptImporter } from "@/lib/importers/shared/types";

/** The hooks' runtimes, and Gemini CLI, whose local sessions the watcher reads the same way. */
export type HookFormat = Extract<ImportFormat, "claude-code" | "codex" | "gemini-cli">;

export async function hookImporter(format: HookFormat): Promise<TranscriptImporter> {
  if (format === "claude-code") return (await import("@/lib/importers/claude-code")).claudeCodeImporter;
  if (format === "gemini-cli") return (await import("@/lib/importers/gemini-cli")).geminiCliImporter;
  return (await import("@/lib/importers/codex")).codexImporter;
}
