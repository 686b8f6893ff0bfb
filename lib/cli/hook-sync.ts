/**
 * The hooks' side of an incremental import: the transcript is read up to its last complete line
 * and parsed here, and only the spans past the session's cursor (kept in the state directory, one
 * small file per session) go to the server, with the compactions and skipped records that are new.
 * Parsing the whole file keeps seqs and tool-call pairing exactly as a full import has them; the
 * server's ingest is idempotent per (seq, bytes), so a lost cursor only means sending again.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTranscript } from "@/lib/importers";
import type { ImportFormat, ImportedSession } from "@/lib/importers/types";
import type { ConnectionConfig } from "./hook-config";

export interface Cursor {
  transcriptPath: string;
  /** Bytes of the transcript already parsed (up to a line break). */
  bytes: number;
  /** Complete lines in those bytes: skipped records past it are new. */
  lines: number;
  /** The first seq not yet sent. */
  nextSeq: number;
}

export interface SyncRequest {
  format: ImportFormat;
  sessionId: string;
  transcriptPath: string | null;
  gate: boolean;
  ledgerLimit?: number;
}

export interface SyncAnswer {
  sessionId: string;
  nextSeq: number;
  imported: number;
  linkedCompactions: number;
  gate?: { checked: number; refusedCount: number; refused: Array<{ spanId: string; seq: number | null; reason: string }> };
  ledger?: { externalId: string; total: number; entries: Array<Record<string, unknown>> };
  ledgerText?: string;
}

/** A failure with the one line the hook prints. */
export class HookFailure extends Error {}

const BATCH = 1000;

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

function completeLines(bytes: Uint8Array): Uint8Array {
  const end = bytes.lastIndexOf(0x0a);
  return end < 0 ? bytes.subarray(0, 0) : bytes.subarray(0, end + 1);
}

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 0x0a) n++;
  return n;
}

/** The session of the transcript the runtime named: by its id, else the one with the most spans. */
function pickSession(sessions: ImportedSession[], sessionId: string): ImportedSession | undefined {
  return sessions.find((s) => s.externalId === sessionId) ?? [...sessions].sort((a, b) => b.spans.length - a.spans.length)[0];
}

const wire = (span: ImportedSession["spans"][number]) => ({
  seq: span.seq,
  kind: span.kind,
  role: span.role,
  toolName: span.toolName,
  toolInput: span.toolInput,
  exitCode: span.exitCode,
  outcome: span.outcome,
  agentId: span.agentId,
  agentType: span.agentType,
  cwd: span.cwd,
  occurredAt: span.occurredAt.toISOString(),
  body: Buffer.from(span.body).toString("base64"),
  bodyEncoding: "base64",
  sourceLine: span.sourceLine,
});

async function post(config: ConnectionConfig, body: unknown, signal: AbortSignal): Promise<SyncAnswer> {
  let response: Response;
  try {
    response = await fetch(new URL("/api/v1/hooks/sync", config.url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${config.key}` },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new HookFailure("timed out waiting for the Custodian server");
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new HookFailure(`Custodian server unreachable at ${config.url}${cause ? ` (${cause})` : ""}`);
  }
  const json = (await response.json().catch(() => null)) as (SyncAnswer & { error?: { code: string; message: string } }) | null;
  if (!response.ok || !json)
    throw new HookFailure(
      `Custodian server answered ${response.status}: ${json?.error?.code ?? "?"} ${json?.error?.message ?? ""}`.trim(),
    );
  return json;
}

/** Sends what is new in the transcript; returns the server's answer to the last batch. */
export async function syncTranscript(config: ConnectionConfig, request: SyncRequest, signal: AbortSignal): Promise<SyncAnswer> {
  if (!config.url || !config.key) throw new HookFailure("CUSTODIAN_URL and CUSTODIAN_KEY are not set (nor in the config file)");
  const path = request.transcriptPath;
  const cursor = path ? readCursor(config, request.format, request.sessionId, path) : undefined;
  let spans: ReturnType<typeof wire>[] = [];
  let skipped: Array<{ line: number; reason: string }> = [];
  let compactions: Array<{ summarySeq: number; replacedSeqs: number[]; occurredAt: string }> = [];
  let session: { externalId: string; runtime: string; title?: string; cwd?: string; startedAt?: string } = {
    externalId: request.sessionId,
    runtime: request.format,
  };
  let next: Cursor | undefined;
  if (path && cursor) {
    let bytes: Uint8Array;
    try {
      bytes = completeLines(new Uint8Array(readFileSync(path)));
    } catch (error) {
      throw new HookFailure(
        `cannot read the transcript ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (bytes.byteLength !== cursor.bytes && bytes.byteLength > 0) {
      const parsed = importTranscript(bytes, request.format);
      const found = pickSession(parsed.sessions, request.sessionId);
      if (found) {
        session = {
          externalId: found.externalId,
          runtime: found.runtime,
          ...(found.title ? { title: found.title.slice(0, 500) } : {}),
          ...(found.cwd ? { cwd: found.cwd } : {}),
          ...(found.startedAt ? { startedAt: found.startedAt.toISOString() } : {}),
        };
        const from = bytes.byteLength < cursor.bytes ? 0 : cursor.nextSeq; // a rewritten file starts over
        spans = found.spans.filter((s) => s.seq >= from).map(wire);
        skipped = found.skipped
          .filter((s) => s.line > cursor.lines || from === 0)
          .map((s) => ({ line: s.line, reason: s.message.slice(0, 2000) }));
        compactions = found.compactions
          .filter((c) => c.summarySeq >= from)
          .map((c) => ({ summarySeq: c.summarySeq, replacedSeqs: c.replacedSeqs, occurredAt: c.occurredAt.toISOString() }));
      }
      next = { transcriptPath: path, bytes: bytes.byteLength, lines: countLines(bytes), nextSeq: cursor.nextSeq };
    }
  }
  let answer: SyncAnswer | undefined;
  for (let i = 0; i === 0 || i < spans.length; i += BATCH) {
    const last = i + BATCH >= spans.length;
    answer = await post(
      config,
      {
        session,
        spans: spans.slice(i, i + BATCH),
        skipped: i === 0 ? skipped.slice(0, 1000) : [],
        compactions: last ? compactions : [],
        gate: last && request.gate,
        ...(last && request.ledgerLimit ? { ledgerLimit: request.ledgerLimit, serverUrl: config.url } : {}),
      },
      signal,
    );
    // A long first import may outlast the hook's time limit: what was sent is kept, and the next
    // hook goes on from there (the old byte count makes it parse the file again).
    if (next && cursor && !last) writeCursor(config, request.format, request.sessionId, { ...cursor, nextSeq: answer.nextSeq });
  }
  if (next && answer) writeCursor(config, request.format, request.sessionId, { ...next, nextSeq: answer.nextSeq });
  return answer!;
}
