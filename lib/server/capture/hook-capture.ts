/**
 * Claude Code's HTTP hooks, captured by this server: the event names a transcript on this machine,
 * which is read from the file's cursor in the database (the watcher's `transcript_cursor`, so a file
 * the watcher also follows is never read twice) through the same incremental reader and the same
 * use case as the process hooks. One capture of a file runs at a time; the next waits for it.
 */
import { statSync } from "node:fs";
import { type Cursor, readAndSend, readFrom, type SyncAnswer, type SyncRequest } from "@/lib/importers/incremental";
import { parseTranscriptOffThread } from "@/lib/server/imports";
import { loadTranscriptCursor, saveTranscriptCursor } from "./cursors";
import { allowedTranscriptPath } from "./transcript-roots";

/** The events Claude Code may send as HTTP hooks that capture anything (SessionStart allows only command hooks). */
export const HTTP_HOOK_EVENTS = ["PreCompact", "PostCompact", "Stop", "SubagentStop", "SessionEnd"] as const;
export type HttpHookEvent = (typeof HTTP_HOOK_EVENTS)[number];

export interface HttpHookInput {
  event: HttpHookEvent;
  sessionId: string;
  transcriptPath?: string;
  /** SubagentStop: the subagent's own transcript, its id and its type. */
  agentTranscriptPath?: string;
  agentId?: string;
  agentType?: string;
  /** PostCompact: the summary the compaction wrote. */
  compactSummary?: string;
}

/** Hands one batch (the hook request's body) to the hooks' use case, validated as a hook's POST is. */
export type SendBatch = (body: unknown) => Promise<SyncAnswer>;

/**
 * What the event asks the reader for, as the process hook of the same event does (lib/cli/hook.ts);
 * null when there is nothing to read (no transcript named).
 */
export function hookSyncRequest(input: HttpHookInput): SyncRequest | null {
  if (input.event === "SubagentStop") {
    if (!input.agentTranscriptPath) return null;
    return {
      format: "claude-code",
      sessionId: input.agentId ? `${input.sessionId}/agent-${input.agentId}` : input.sessionId,
      transcriptPath: input.agentTranscriptPath,
      gate: false,
      ...(input.agentType ? { agentType: input.agentType } : {}),
    };
  }
  if (!input.transcriptPath) return null;
  return {
    format: "claude-code",
    sessionId: input.sessionId,
    transcriptPath: input.transcriptPath,
    gate: input.event === "PreCompact",
    ...(input.event === "PostCompact" && input.compactSummary ? { runtimeSummary: input.compactSummary } : {}),
  };
}

const running = globalThis as unknown as { custodianHookCaptures?: Map<string, Promise<unknown>> };
const captures = () => (running.custodianHookCaptures ??= new Map());

/**
 * Runs `work` after the file's capture before it, if any: two events of a session never share a
 * cursor. The caller has `value` as soon as the work has it; the next capture of the file also
 * waits for `rest` (the cursor's write), which the caller does not.
 */
async function oneAtATime<T>(key: string, work: () => Promise<{ value: T; rest?: Promise<unknown> }>): Promise<T> {
  const before = captures().get(key) ?? Promise.resolve();
  const mine: Promise<{ value: T; rest?: Promise<unknown> }> = before.catch(() => {}).then(work);
  const settled = mine.then((done) => done.rest).catch(() => {});
  captures().set(key, settled);
  void settled.then(() => {
    if (captures().get(key) === settled) captures().delete(key);
  });
  return (await mine).value;
}

const fresh = (path: string): Cursor => ({ transcriptPath: path, bytes: 0, lines: 0, nextSeq: 0 });

/** Imports what is new in the event's transcript; the use case's answer to the last batch, or null when nothing was read. */
export async function captureHookEvent(
  projectId: string,
  input: HttpHookInput,
  send: SendBatch,
  signal: AbortSignal,
): Promise<SyncAnswer | null> {
  const request = hookSyncRequest(input);
  if (!request?.transcriptPath) return null;
  const path = allowedTranscriptPath(request.transcriptPath);
  return oneAtATime(`${projectId}\0${path}`, async () => {
    const stat = statSync(path);
    const identity = `${stat.dev}:${stat.ino}`;
    const row = await loadTranscriptCursor(projectId, path);
    const state = row?.identity === identity ? (row.state as Cursor | null) : null;
    const start = state && Number.isInteger(state.bytes) && Number.isInteger(state.nextSeq) ? state : fresh(path);
    let cursor = start;
    // The runtime's cleanup counts from the file's last change: a date the watcher recorded moves with it.
    const deleteAt = row?.deleteAt ? new Date(row.deleteAt.getTime() + (stat.mtime.getTime() - row.mtime.getTime())) : null;
    const save = (error: string | null) =>
      saveTranscriptCursor(projectId, {
        path,
        runtime: "claude-code",
        identity,
        size: stat.size,
        mtime: stat.mtime,
        state: error ? start : cursor,
        bytes: error ? (row?.identity === identity ? row.bytes : 0) : cursor.bytes,
        error,
        deleteAt,
      });
    try {
      const answer = await readAndSend(
        { ...request, transcriptPath: path },
        // A first read or a compaction parses the whole file: off the event loop when it is large.
        (bytes) => parseTranscriptOffThread(bytes, "claude-code"),
        {
          readTranscript: readFrom,
          readCursor: () => start,
          writeCursor: (next) => {
            cursor = next;
          },
          send: (body) => send(body),
        },
        signal,
      );
      // The answer does not wait for the cursor: were its write to fail, the next capture reads
      // from the cursor before and sends those records again, which ingest takes as resubmissions.
      const rest = save(null).catch((error: unknown) => console.error(`The cursor of ${path} could not be saved`, error));
      return { value: answer, rest };
    } catch (error) {
      await save((error instanceof Error ? error.message : String(error)).slice(0, 2000)).catch(() => {});
      throw error;
    }
  });
}
