/**
 * The incremental reader the runtime hooks, the HTTP hooks and the watcher share: a transcript is
 * read up to its last complete line and parsed, and only the spans past the session's cursor are
 * handed over, with the compactions and skipped records that are new. Parsing the whole file keeps
 * seqs and tool-call pairing exactly as a full import has them; the server's ingest is idempotent
 * per (seq, bytes), so a lost cursor only means sending again. Where the cursor is kept and where a
 * batch goes are the caller's (SyncIo): a file per session and a POST for a hook process, the
 * database and the use case for the server.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { storableWords, textCannotHold } from "@/lib/core/text";
import { startsAfterSession } from "./shared/partial-start";
import type { ImportedSession, ImportResult } from "./shared/types";

/**
 * The format's parse of whole lines: the importer's own for a hook process; the server hands a
 * large read to a worker thread, so no capture stalls its other requests.
 */
export type TranscriptParse = (bytes: Uint8Array) => Pick<ImportResult, "sessions"> | Promise<Pick<ImportResult, "sessions">>;

/** The runtimes whose local transcripts are read incrementally. */
export type IncrementalFormat = "claude-code" | "codex" | "gemini-cli";

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
  format: IncrementalFormat;
  sessionId: string;
  transcriptPath: string | null;
  gate: boolean;
  ledgerLimit?: number;
  /** A subagent's type, for its spans that carry its id but not its type. */
  agentType?: string;
  /** A subagent's id, for a transcript whose records carry none (a Codex subagent's own rollout). */
  agentId?: string;
  /** The runtime's own compaction summary, stored verbatim and linked to what it replaced. */
  runtimeSummary?: string;
}

export interface SyncAnswer {
  sessionId: string;
  nextSeq: number;
  imported: number;
  linkedCompactions: number;
  gate?: { checked: number; refusedCount: number; refused: Array<{ spanId: string; seq: number | null; reason: string }> };
  ledger?: { externalId: string; total: number; entries: Array<Record<string, unknown>> };
  ledgerText?: string;
  runtimeSummary?: { spanId: string; replaced: number; stored: boolean } | null;
}

const BATCH = 1000;
/**
 * Characters of base64 bodies one request carries at most: with a batch's other fields, well under
 * the server's 32 MiB request limit, and above one span at the body cap (8 MiB is about 11 MiB as
 * base64), so spans near the cap go a few to a request instead of failing the hook every time.
 */
const BATCH_BODY_CHARS = 24 * 1024 * 1024;

/** Spans in batches of at most BATCH spans and BATCH_BODY_CHARS of bodies (always at least one batch). */
function batchesOf<T extends { body: string }>(spans: T[]): T[][] {
  const batches: T[][] = [[]];
  let chars = 0;
  for (const span of spans) {
    const current = batches.at(-1)!;
    if (current.length > 0 && (current.length >= BATCH || chars + span.body.length > BATCH_BODY_CHARS)) {
      batches.push([]);
      chars = 0;
    }
    batches.at(-1)!.push(span);
    chars += span.body.length;
  }
  return batches;
}

/**
 * The transcript's complete lines from byte `from` on (an earlier hook read the part before it),
 * and the file's whole size: a long session's file is megabytes, and a hook reads only what it has
 * not parsed yet; the size tells a file cut shorter even when nothing lies past `from`.
 */
export function readFrom(path: string, from: number, whole = false): { bytes: Uint8Array; size: number } {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(Math.max(0, size - from));
    let read = 0;
    while (read < bytes.byteLength) {
      const n = readSync(fd, bytes, read, bytes.byteLength - read, from + read);
      if (n === 0) break;
      read += n;
    }
    if (whole) return { bytes: bytes.subarray(0, read), size };
    const end = bytes.subarray(0, read).lastIndexOf(0x0a);
    return { bytes: bytes.subarray(0, end + 1), size };
  } finally {
    closeSync(fd);
  }
}

/** Line breaks counted natively (a byte loop in a process just started takes a quarter second on 5 MB). */
function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) n++;
  return n;
}

/** The session of the transcript the runtime named: by its id, else the one with the most spans. */
function pickSession(sessions: ImportedSession[], sessionId: string): ImportedSession | undefined {
  return sessions.find((s) => s.externalId === sessionId) ?? [...sessions].sort((a, b) => b.spans.length - a.spans.length)[0];
}

type Session = NonNullable<Cursor["session"]>;

interface SessionRead {
  session: Session;
  /** Complete lines in the file. */
  lines: number;
  spans: ImportedSession["spans"];
  skipped: ImportedSession["skipped"];
  compactions: ImportedSession["compactions"];
  base: NonNullable<Cursor["base"]>;
}

/** The part of the transcript a hook reads: its complete lines from `base` on. */
interface Part {
  base: NonNullable<Cursor["base"]>;
  bytes: Uint8Array;
}

/**
 * The session's spans with the seqs and lines a parse of the whole file gives them. Only the part
 * after the cursor's base is parsed (records there never pair with earlier ones); the whole file is
 * parsed when there is no base, and when the part holds a compaction (which replaces spans before it).
 * None when the file holds no session yet (it starts with bookkeeping records).
 */
async function readSession(
  parse: TranscriptParse,
  part: Part,
  whole: () => Uint8Array,
  request: SyncRequest,
  cursor: Cursor | undefined,
): Promise<SessionRead | undefined> {
  if (part.base.bytes > 0 && cursor?.session) {
    const tail = await parse(part.bytes);
    const found = pickSession(tail.sessions, request.sessionId);
    // The part starts where this reader cut it, after the session began: that is no missing record.
    if (found && found.compactions.length === 0)
      return shifted({ ...found, skipped: found.skipped.filter((k) => !startsAfterSession(k)) }, cursor.session, part);
    if (!found && tail.sessions.length === 0) return undefined;
  }
  const bytes = part.base.bytes > 0 ? whole() : part.bytes;
  const found = pickSession((await parse(bytes)).sessions, request.sessionId);
  if (!found) return undefined;
  const session: Session = {
    externalId: found.externalId,
    runtime: found.runtime,
    ...(found.title && storable(found.title) ? { title: found.title.slice(0, 500) } : {}),
    ...(found.cwd && storable(found.cwd) ? { cwd: found.cwd } : {}),
    ...(found.startedAt ? { startedAt: found.startedAt.toISOString() } : {}),
  };
  return shifted(found, session, { base: { bytes: 0, lines: 0, seq: 0 }, bytes });
}

/** A parse of the part in the whole file's numbering, and the next base. */
function shifted(found: ImportedSession, session: Session, { base, bytes }: Part): SessionRead {
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
  const totalLines = base.lines + countLines(bytes);
  const cutLine = open.length > 0 ? Math.min(...open.map((s) => s.sourceLine)) - 1 : totalLines;
  const after = spans.filter((s) => s.sourceLine > cutLine);
  const nextSeq = after.length > 0 ? Math.min(...after.map((s) => s.seq)) : base.seq + found.spans.length;
  // Spans of lines past the cut must all come after those before it, or the cut is not safe.
  const safe = spans.every((s) => s.sourceLine > cutLine === s.seq >= nextSeq);
  const next =
    safe && cutLine >= base.lines
      ? { bytes: base.bytes + lineEnd(bytes, cutLine - base.lines), lines: cutLine, seq: nextSeq }
      : base;
  return { session, lines: totalLines, spans, skipped, compactions, base: next };
}

/** The byte offset just after the given number of lines of the part. */
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

const wire = (span: ImportedSession["spans"][number], agent: { agentId?: string; agentType?: string }) => ({
  seq: span.seq,
  kind: span.kind,
  role: storable(span.role),
  toolName: storable(span.toolName),
  toolInput: span.toolInput,
  exitCode: span.exitCode,
  outcome: span.outcome,
  agentId: storable(span.agentId ?? agent.agentId),
  agentType: storable(span.agentType ?? ((span.agentId ?? agent.agentId) ? agent.agentType : undefined)),
  cwd: storable(span.cwd),
  occurredAt: span.occurredAt.toISOString(),
  body: Buffer.from(span.body).toString("base64"),
  bodyEncoding: "base64",
  sourceLine: span.sourceLine,
});

/**
 * Where a reader keeps its cursor and how it hands a batch over: the hooks keep a file per session
 * and POST to the server; the watcher keeps the cursor in the database and calls the use case.
 */
export interface SyncIo {
  /** The transcript's bytes from `from` on (whole: not cut at its last line break), and its size. */
  readTranscript(path: string, from: number, whole: boolean): { bytes: Uint8Array; size: number };
  readCursor(path: string): Cursor | Promise<Cursor>;
  writeCursor(cursor: Cursor): void | Promise<void>;
  send(body: unknown, signal: AbortSignal): Promise<SyncAnswer>;
}

/**
 * The transcript as one document (a Gemini CLI `.json` session, rewritten whole at each change):
 * read whole, never cut at its last line break.
 */
const isDocument = (request: SyncRequest, path: string) => request.format === "gemini-cli" && path.endsWith(".json");

/** Sends what is new in the transcript; returns the server's answer to the last batch. */
export async function readAndSend(
  request: SyncRequest,
  parse: TranscriptParse,
  io: SyncIo,
  signal: AbortSignal,
  /** The server's address as the caller knows it, for the evidence ledger's fetch hint. */
  serverUrl?: string,
): Promise<SyncAnswer> {
  const path = request.transcriptPath;
  const cursor = path ? await io.readCursor(path) : undefined;
  let spans: ReturnType<typeof wire>[] = [];
  let skipped: Array<{ line: number; reason: string }> = [];
  let linesRead: number | undefined;
  let compactions: Array<{ summarySeq: number; replacedSeqs: number[]; occurredAt: string }> = [];
  let session: { externalId: string; runtime: string; title?: string; cwd?: string; startedAt?: string } = {
    externalId: request.sessionId,
    runtime: request.format,
  };
  let next: Cursor | undefined;
  if (path && cursor) {
    const read = (from: number) => io.readTranscript(path, from, isDocument(request, path));
    // Only Claude Code's records are known to read the same from any quiescent line (the test parses
    // real sessions both ways); Codex rollouts are parsed whole.
    const tailSafe = request.format === "claude-code" && cursor.session && cursor.base && cursor.base.bytes <= cursor.bytes;
    const start = tailSafe && cursor.base ? cursor.base : { bytes: 0, lines: 0, seq: 0 };
    const tail = read(start.bytes);
    let part: Part = { base: start, bytes: tail.bytes };
    // Shorter than what was read before: the file was rewritten, and is read (and sent) again whole.
    if (start.bytes > 0 && (tail.size < cursor.bytes || start.bytes + tail.bytes.byteLength < cursor.bytes))
      part = { base: { bytes: 0, lines: 0, seq: 0 }, bytes: read(0).bytes };
    const end = part.base.bytes + part.bytes.byteLength;
    if (end !== cursor.bytes && end > 0) {
      const rewritten = end < cursor.bytes;
      const found = await readSession(parse, part, () => read(0).bytes, request, rewritten ? undefined : cursor);
      if (found) {
        session = found.session;
        linesRead = found.lines;
        const from = rewritten ? 0 : cursor.nextSeq; // a rewritten file starts over
        spans = found.spans.filter((s) => s.seq >= from).map((s) => wire(s, request));
        skipped = found.skipped
          .filter((s) => s.line > cursor.lines || from === 0)
          .map((s) => ({ line: s.line, reason: storableWords(s.message.slice(0, 2000)) }));
        compactions = found.compactions
          .filter((c) => c.summarySeq >= from)
          .map((c) => ({ summarySeq: c.summarySeq, replacedSeqs: c.replacedSeqs, occurredAt: c.occurredAt.toISOString() }));
        next = {
          transcriptPath: path,
          bytes: end,
          lines: found.lines,
          nextSeq: cursor.nextSeq,
          base: found.base,
          session: found.session,
        };
      } else next = { ...cursor, transcriptPath: path, bytes: end, lines: part.base.lines + countLines(part.bytes) };
    }
  }
  let answer: SyncAnswer | undefined;
  const batches = batchesOf(spans);
  for (let i = 0; i < batches.length; i++) {
    const last = i === batches.length - 1;
    answer = await io.send(
      {
        session,
        spans: batches[i]!,
        skipped: i === 0 ? skipped.slice(0, 1000) : [],
        ...(i === 0 && linesRead !== undefined ? { linesRead } : {}),
        compactions: last ? compactions : [],
        gate: last && request.gate,
        ...(last && request.ledgerLimit ? { ledgerLimit: request.ledgerLimit, serverUrl } : {}),
        ...(last && request.runtimeSummary
          ? {
              runtimeSummary: {
                text: request.runtimeSummary,
                occurredAt: new Date().toISOString(),
                // What the newest compaction in the transcript replaced, when this read found it.
                ...(compactions.length > 0 ? { replacedSeqs: compactions.at(-1)!.replacedSeqs } : {}),
              },
            }
          : {}),
      },
      signal,
    );
    // A long first import may outlast the hook's time limit: what was sent is kept, and the next
    // hook goes on from there (the old byte count makes it parse the file again).
    if (next && cursor && !last) await io.writeCursor({ ...cursor, nextSeq: answer.nextSeq });
  }
  if (next && answer) await io.writeCursor({ ...next, nextSeq: answer.nextSeq });
  return answer!;
}
