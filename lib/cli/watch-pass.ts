/**
 * One pass of `custodian watch`: every local transcript that changed since its cursor (identity,
 * size or modification time) goes through the hooks' incremental reader (./hook-sync.ts), whose
 * batches go straight to the hooks' use case through the same request schema a hook's POST meets;
 * the reader's cursor is kept in the database (lib/server/capture). Unchanged files are not opened.
 */
import { type Stats, statSync } from "node:fs";
import { HookSyncSchema, hookSyncInput } from "@/lib/api/hook-sync-schema";
import { loadTranscriptCursors, saveTranscriptCursor, type TranscriptCursorRow } from "@/lib/server/capture";
import { syncHookTranscript } from "@/lib/server/integrations";
import type { ConnectionConfig } from "./hook-config";
import { type Cursor, readTranscriptFile, type SyncAnswer, type SyncIo, syncTranscript } from "./hook-sync";
import { deleteAt } from "./watch-cleanup";
import type { LocalTranscript } from "./watch-discover";

export interface FileResult {
  path: string;
  runtime: string;
  /** Spans this pass stored (0 when nothing was new). */
  imported: number;
  error?: string;
  deleteAt: Date | null;
  /** The file is imported to its end. */
  complete: boolean;
}

export interface PassOptions {
  projectId: string;
  claudeCleanupDays: number;
  /** Called as each changed file is done: the backfill's progress. */
  onFile?: (done: number, total: number, result: FileResult) => void;
}

/** No server, no key, no time limit: the watcher calls the use case itself. */
const LOCAL: ConnectionConfig = { failClosed: false, timeoutMs: 0, ledgerLimit: 1, stateDir: "" };

const fresh = (path: string): Cursor => ({ transcriptPath: path, bytes: 0, lines: 0, nextSeq: 0 });

function stateOf(row: TranscriptCursorRow | undefined, identity: string, path: string): Cursor {
  if (!row || row.identity !== identity) return fresh(path); // another file at this path: from its start
  const state = row.state as Cursor | null;
  return state && Number.isInteger(state.bytes) && Number.isInteger(state.nextSeq) ? state : fresh(path);
}

interface Sent {
  spans: unknown[];
  skipped: unknown[];
  compactions: unknown[];
}

/** The reader's io against the database; counts what was stored. */
function databaseIo(projectId: string, start: Cursor, counter: { imported: number; cursor: Cursor }): SyncIo {
  return {
    readTranscript: readTranscriptFile,
    readCursor: () => start,
    writeCursor: (cursor) => {
      counter.cursor = cursor;
    },
    async send(body) {
      const sent = body as Sent;
      // Nothing read (only bookkeeping records so far): no session to create yet.
      if (sent.spans.length === 0 && sent.skipped.length === 0 && sent.compactions.length === 0)
        return { sessionId: "", nextSeq: counter.cursor.nextSeq, imported: 0, linkedCompactions: 0 } satisfies SyncAnswer;
      const answer = await syncHookTranscript(projectId, hookSyncInput(HookSyncSchema.parse(body)), "cli:watch");
      counter.imported += answer.imported;
      return answer as SyncAnswer;
    },
  };
}

export async function runPass(files: LocalTranscript[], options: PassOptions): Promise<FileResult[]> {
  const cursors = await loadTranscriptCursors(options.projectId);
  const results: FileResult[] = [];
  const changed: Array<{ file: LocalTranscript; stat: Stats; identity: string }> = [];
  for (const file of files) {
    let stat: Stats;
    try {
      stat = statSync(file.path);
    } catch {
      continue; // gone since it was found
    }
    const identity = `${stat.dev}:${stat.ino}`;
    const row = cursors.get(file.path);
    const when = deleteAt(file.runtime, stat.mtime, options.claudeCleanupDays);
    if (row && row.identity === identity && row.size === stat.size && row.mtime.getTime() === stat.mtime.getTime()) {
      results.push({
        path: file.path,
        runtime: file.runtime,
        imported: 0,
        deleteAt: when,
        complete: row.error === null && row.bytes >= row.size,
        ...(row.error ? { error: row.error } : {}),
      });
      continue;
    }
    changed.push({ file, stat, identity });
  }
  let done = 0;
  for (const { file, stat, identity } of changed) {
    const row = cursors.get(file.path);
    const start = stateOf(row, identity, file.path);
    const counter = { imported: 0, cursor: start };
    let error: string | undefined;
    try {
      await syncTranscript(
        LOCAL,
        { format: file.runtime, sessionId: file.sessionId, transcriptPath: file.path, gate: false },
        new AbortController().signal,
        databaseIo(options.projectId, start, counter),
      );
    } catch (cause) {
      error = (cause instanceof Error ? cause.message : String(cause)).slice(0, 2000);
    }
    const when = deleteAt(file.runtime, stat.mtime, options.claudeCleanupDays);
    const bytes = error ? (row?.identity === identity ? row.bytes : 0) : counter.cursor.bytes;
    await saveTranscriptCursor(options.projectId, {
      path: file.path,
      runtime: file.runtime,
      identity,
      size: stat.size,
      mtime: stat.mtime,
      state: error ? start : counter.cursor,
      bytes,
      error: error ?? null,
      deleteAt: when,
    });
    const result: FileResult = {
      path: file.path,
      runtime: file.runtime,
      imported: counter.imported,
      deleteAt: when,
      complete: !error && bytes >= stat.size,
      ...(error ? { error } : {}),
    };
    results.push(result);
    done += 1;
    options.onFile?.(done, changed.length, result);
  }
  return results;
}
