/**
 * Codex's `/undo`, as its rollout keeps it: one `undo_completed` event (codex-rs protocol
 * `UndoCompletedEvent {success, message}`; the rollout recorder persists it, not `undo_started`).
 * The undo task (codex-rs core/src/tasks/undo.rs) restores the latest ghost snapshot of the
 * workspace: tracked files go back to their snapshot state and untracked files created since are
 * removed. The event names no file, so the undo is a call that rewrote the workspace and may have
 * deleted files under it, and a question about file writes or deletions must see it.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { DraftSpan, SessionDraft } from "../shared/builder";
import { rawValue } from "../shared/json-scan";
import type { JsonLine } from "../shared/jsonl";
import { str, utf8 } from "../shared/text";

/** The tool name an undo's call carries (see lib/evidence/tools.ts for what it changes). */
export const UNDO_TOOL = "restore_ghost_snapshot";

/** Messages of an undo that restored nothing: cancelled before it began, or no snapshot to restore. */
const RESTORED_NOTHING = new Set(["Undo cancelled.", "No ghost snapshot available to undo."]);

/**
 * What became of the undo: `success` true restored the snapshot; false with one of the messages the
 * task writes before restoring anything never ran; any other failure ("Failed to restore snapshot
 * <id>: <error>") stopped inside the restore, which may have changed files already; no `success`
 * at all says nothing.
 */
export function undoOutcome(payload: Record<string, unknown>): ToolOutcome {
  if (payload.success === true) return "SUCCEEDED";
  if (payload.success !== false) return "UNKNOWN";
  const message = str(payload.message);
  return message !== undefined && RESTORED_NOTHING.has(message) ? "NOT_RUN" : "FAILED";
}

/**
 * The undo as a call and its result. The call's arguments are the workspace it restored (the turn's
 * working directory, "." when the rollout names none) and the snapshot's id when the message names
 * it; the result is the event as the file holds it.
 */
export function addUndo(
  draft: SessionDraft,
  line: JsonLine,
  payload: Record<string, unknown>,
  at: Pick<DraftSpan, "occurredAt" | "sourceLine">,
  cwd: string | undefined,
): void {
  const message = str(payload.message) ?? "";
  const snapshot = /\bsnapshot ([0-9a-f]{7,40})\b/.exec(message)?.[1];
  const workspace = cwd ?? ".";
  // Two arguments naming the same folder: what the restore rewrote, and where it removed new files.
  const toolInput = { workspace, new_files_under: workspace, ...(snapshot ? { snapshot } : {}) };
  const sourceId = `undo:${line.line}`;
  const shared = { ...at, toolName: UNDO_TOOL, sourceId, ...(cwd ? { cwd } : {}) };
  draft.add({ ...shared, kind: "TOOL_CALL", toolInput, body: utf8(JSON.stringify(toolInput)), outcome: undoOutcome(payload) });
  const raw = rawValue(line.bytes, ["payload"]);
  draft.add({ ...shared, kind: "TOOL_RESULT", body: raw ? raw.slice() : utf8(JSON.stringify(payload)) });
}
