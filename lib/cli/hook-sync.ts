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
import { storableWords, textCannotHold } from "@/lib/core/text";
import { importTranscript as parse, TranscriptImportError } from "@/lib/importers";
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
  /**
   * Where the next parse may start: the end of the last line before which every tool call has its
   * result (so no later record pairs with an earlier one), with the seq and line count there.
   */
  base?: { bytes: number; lines: number; seq: number };
  /** The session's metadata from the last parse of the whole file. */
  session?: { externalId: string; runtime: string; title?: string; cwd?: string; startedAt?: string };
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

type Session = NonNullable<Cursor["session"]>;

interface SessionRead {
  session: Session;
  spans: ImportedSession["spans"];
  skipped: ImportedSession["skipped"];
  compactions: ImportedSession["compactions"];
  base: NonNullable<Cursor["base"]>;
}

/**
 * The session's spans with the seqs and lines a parse of the whole file gives them. Only the part
 * after the cursor's base is parsed (records there never pair with earlier ones); the whole file is
 * parsed when there is no base, and when the part holds a compaction (which replaces spans before it).
 */
/** The transcript parsed; none when it holds no session yet (a file that starts with bookkeeping records). */
function importTranscript(bytes: Uint8Array, format: ImportFormat): { sessions: ImportedSession[] } {
  try {
    return parse(bytes, format);
  } catch (error) {
    if (error instanceof TranscriptImportError && error.code === "NO_SESSIONS_FOUND") return { sessions: [] };
    throw error;
  }
}

function readSession(bytes: Uint8Array, request: SyncRequest, cursor: Cursor | undefined): SessionRead | undefined {
  // Only Claude Code's records are known to read the same from any quiescent line (the test parses
  // real sessions both ways); Codex rollouts are parsed whole.
  const tailSafe = request.format === "claude-code";
  const base = tailSafe && cursor?.base && cursor.session && cursor.base.bytes <= bytes.byteLength ? cursor.base : undefined;
  if (base) {
    const tail = importTranscript(bytes.subarray(base.bytes), request.format);
    const found = pickSession(tail.sessions, request.sessionId);
    if (found && found.compactions.length === 0) return shifted(found, cursor!.session!, bytes, base);
    if (!found && tail.sessions.length === 0) return undefined;
  }
  const whole = importTranscript(bytes, request.format);
  const found = pickSession(whole.sessions, request.sessionId);
  if (!found) return undefined;
  const session: Session = {
    externalId: found.externalId,
    runtime: found.runtime,
    ...(found.title && storable(found.title) ? { title: found.title.slice(0, 500) } : {}),
    ...(found.cwd && storable(found.cwd) ? { cwd: found.cwd } : {}),
    ...(found.startedAt ? { startedAt: found.startedAt.toISOString() } : {}),
  };
  return shifted(found, session, bytes, { bytes: 0, lines: 0, seq: 0 });
}

/** A parse of bytes[base.bytes..] in the whole file's numbering, and the next base. */
function shifted(found: ImportedSession, session: Session, bytes: Uint8Array, base: NonNullable<Cursor["base"]>): SessionRead {
  const spans = found.spans.map((s) => ({ ...s, seq: s.seq + base.seq, sourceLine: s.sourceLine + base.lines }));
  const skipped = found.skipped.map((k) => ({ ...k, line: k.line > 0 ? k.line + base.lines : 0 }));
  const compactions = found.compactions.map((c) => ({
    ...c,
    summarySeq: c.summarySeq + base.seq,
    replacedSeqs: c.replacedSeqs.map((q) => q + base.seq),
  }));
  // The next base: before the first call still waiting for its result, else after the last line.
  const answered = new Set(spans.filter((s) => s.kind === "TOOL_RESULT" && s.sourceId).map((s) => s.sourceId));
  const open = spans.filter((s) => s.kind === "TOOL_CALL" && (!s.sourceId || !answered.has(s.sourceId)));
  const totalLines = base.lines + countLines(bytes.subarray(base.bytes));
  const cutLine = open.length > 0 ? Math.min(...open.map((s) => s.sourceLine)) - 1 : totalLines;
  const after = spans.filter((s) => s.sourceLine > cutLine);
  const nextSeq = after.length > 0 ? Math.min(...after.map((s) => s.seq)) : base.seq + found.spans.length;
  // Spans of lines past the cut must all come after those before it, or the cut is not safe.
  const safe = spans.every((s) => s.sourceLine > cutLine === s.seq >= nextSeq);
  const next = safe && cutLine >= base.lines ? { bytes: lineEnd(bytes, cutLine), lines: cutLine, seq: nextSeq } : base;
  return { session, spans, skipped, compactions, base: next };
}

/** The byte offset just after the given number of lines. */
function lineEnd(bytes: Uint8Array, lines: number): number {
  let at = 0;
  for (let i = 0; i < lines; i++) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl < 0) return bytes.byteLength;
    at = nl + 1;
  }
  return at;
}

/**
 * A field stored as text, or nothing when Postgres could not store it exactly. As a file import
 * does: the span's bytes (stored as bytes) keep the NUL exactly, and so does its tool input (the
 * server keeps such input as its JSON text); a field that would have to be altered is left out
 * rather than the whole batch refused, which would leave every span after it unheld.
 */
const storable = <T>(value: T): T | undefined => (typeof value === "string" && textCannotHold(value) ? undefined : value);

const wire = (span: ImportedSession["spans"][number]) => ({
  seq: span.seq,
  kind: span.kind,
  role: storable(span.role),
  toolName: storable(span.toolName),
  toolInput: span.toolInput,
  exitCode: span.exitCode,
  outcome: span.outcome,
  agentId: storable(span.agentId),
  agentType: storable(span.agentType),
  cwd: storable(span.cwd),
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
      const rewritten = bytes.byteLength < cursor.bytes;
      const read = readSession(bytes, request, rewritten ? undefined : cursor);
      if (read) {
        session = read.session;
        const from = rewritten ? 0 : cursor.nextSeq; // a rewritten file starts over
        spans = read.spans.filter((s) => s.seq >= from).map(wire);
        skipped = read.skipped
          .filter((s) => s.line > cursor.lines || from === 0)
          .map((s) => ({ line: s.line, reason: storableWords(s.message.slice(0, 2000)) }));
        compactions = read.compactions
          .filter((c) => c.summarySeq >= from)
          .map((c) => ({ summarySeq: c.summarySeq, replacedSeqs: c.replacedSeqs, occurredAt: c.occurredAt.toISOString() }));
        next = {
          transcriptPath: path,
          bytes: bytes.byteLength,
          lines: countLines(bytes),
          nextSeq: cursor.nextSeq,
          base: read.base,
          session: read.session,
        };
      } else next = { ...cursor, transcriptPath: path, bytes: bytes.byteLength, lines: countLines(bytes) };
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
