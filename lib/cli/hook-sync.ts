/**
 * A hook process's side of an incremental import (lib/importers/incremental.ts reads the
 * transcript): the session's cursor is kept in the state directory, one small file per session,
 * and what is new goes to the server's `/api/v1/hooks/sync`.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cursor, readAndSend, readFrom, type SyncAnswer, type SyncIo, type SyncRequest } from "@/lib/importers/incremental";
import type { ImportFormat } from "@/lib/importers/shared/types";
import type { ConnectionConfig } from "./hook-config";
import { hookImporter } from "./hook-importers";
import { postJson } from "./hook-post";

export type { Cursor, SyncAnswer, SyncIo, SyncRequest };

/** A failure with the one line the hook prints. */
export class HookFailure extends Error {}

function cursorFile(config: ConnectionConfig, format: ImportFormat, sessionId: string): string {
  return join(config.stateDir, `${format}-${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}.json`);
}

export function readCursor(config: ConnectionConfig, format: ImportFormat, sessionId: string, path: string): Cursor {
  try {
    const value = JSON.parse(readFileSync(cursorFile(config, format, sessionId), "utf8")) as Cursor;
    if (value.transcriptPath === path && Number.isInteger(value.bytes) && Number.isInteger(value.nextSeq)) return value;
  } catch {
    // no cursor yet
  }
  return { transcriptPath: path, bytes: 0, lines: 0, nextSeq: 0 };
}

function writeCursor(config: ConnectionConfig, format: ImportFormat, sessionId: string, cursor: Cursor) {
  mkdirSync(config.stateDir, { recursive: true });
  const file = cursorFile(config, format, sessionId);
  writeFileSync(`${file}.tmp`, JSON.stringify(cursor));
  renameSync(`${file}.tmp`, file);
}

async function post(config: ConnectionConfig, body: unknown, signal: AbortSignal): Promise<SyncAnswer> {
  let response: Awaited<ReturnType<typeof postJson>>;
  try {
    response = await postJson(new URL("/api/v1/hooks/sync", config.url), config.key ?? "", body, signal);
  } catch (error) {
    if (signal.aborted) throw new HookFailure("timed out waiting for the Custodian server");
    const code = (error as NodeJS.ErrnoException).code;
    throw new HookFailure(`Custodian server unreachable at ${config.url}${code ? ` (${code})` : ""}`);
  }
  const json = response.json as (SyncAnswer & { error?: { code: string; message: string } }) | null;
  if (response.status < 200 || response.status >= 300 || !json || typeof json !== "object")
    throw new HookFailure(
      `Custodian server answered ${response.status}: ${json?.error?.code ?? "?"} ${json?.error?.message ?? ""}`.trim(),
    );
  return json;
}

function hookIo(config: ConnectionConfig, request: SyncRequest): SyncIo {
  if (!config.url || !config.key) throw new HookFailure("CUSTODIAN_URL and CUSTODIAN_KEY are not set (nor in the config file)");
  return {
    readTranscript: readTranscriptFile,
    readCursor: (path) => readCursor(config, request.format, request.sessionId, path),
    writeCursor: (cursor) => writeCursor(config, request.format, request.sessionId, cursor),
    send: (body, signal) => post(config, body, signal),
  };
}

/** A local transcript's bytes; a file that cannot be read is the hook's one line. */
export function readTranscriptFile(path: string, from: number, whole: boolean): { bytes: Uint8Array; size: number } {
  try {
    return readFrom(path, from, whole);
  } catch (error) {
    throw new HookFailure(
      `cannot read the transcript ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** Sends what is new in the transcript; returns the server's answer to the last batch. */
export async function syncTranscript(
  config: ConnectionConfig,
  request: SyncRequest,
  signal: AbortSignal,
  io: SyncIo = hookIo(config, request),
): Promise<SyncAnswer> {
  const importer = await hookImporter(request.format);
  return readAndSend(request, (bytes) => importer.parse(bytes), io, signal, config.url);
}
