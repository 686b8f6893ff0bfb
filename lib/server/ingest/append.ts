import { randomUUID } from "node:crypto";
import { AppError, type FieldError } from "@/lib/core/errors";
import type pg from "pg";
import { databaseMode, db, rawQuery, rawTransaction } from "@/lib/db/client";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { expiresAtFor } from "@/lib/evidence/policy";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { EvidentialClass, RetentionPolicy, SpanKind } from "@/lib/evidence/types";
import {
  atomRowsFor,
  type AtomRow,
  type BatchRows,
  type CopyText,
  type OriginalRow,
  type SpanRow,
  writeRows,
} from "./bulk-insert";
import { sha256Hex } from "@/lib/core/hash";
import { encodeToolInput, jsonbCannotHold, storableTime } from "./storable";
import { loadPolicy } from "@/lib/server/retention";

export interface SessionInput {
  externalId: string;
  runtime: string;
  title?: string | null;
  cwd?: string | null;
  startedAt?: Date | null;
}

export interface SpanSubmission {
  seq: number;
  kind: SpanKind;
  role?: string | null;
  toolName?: string | null;
  toolInput?: unknown;
  exitCode?: number | null;
  /** TOOL_CALL spans and their results: what became of the call (DESIGN.md, "Outcomes"). */
  outcome?: ToolOutcome | null;
  /** The subagent that produced the span; absent for the session's main agent. */
  agentId?: string | null;
  agentType?: string | null;
  /** The line (or record) of an imported file the span came from. */
  sourceLine?: number | null;
  occurredAt: Date;
  body: Uint8Array;
  /** Where a tool call ran, when it differs from the session's working directory. */
  cwd?: string | null;
  toolAnnotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface IngestedSpan {
  id: string;
  seq: number;
  class: EvidentialClass;
  atomCount: number;
  sha256: string;
  /** False when this exact span was already stored: resubmission is a no-op. */
  created: boolean;
}

/**
 * Postgres text cannot hold the NUL character or a lone UTF-16 surrogate. Bodies are bytes and keep
 * both, and so does tool input (storable.ts); the fields stored as text are refused with the field
 * at fault.
 */
function rejectUnstorableText(fields: Array<[path: string, value: unknown]>) {
  const bad = fields
    .filter(([, value]) => holdsNul(value))
    .map(([path]) => ({ path, message: "must not contain the NUL character (U+0000) or a lone surrogate" }));
  if (bad.length > 0)
    throw new AppError("VALIDATION_FAILED", "Text fields cannot hold the NUL character; send such content in the body", {
      fields: bad,
    });
}

const STORED_AS_TEXT = ["role", "toolName", "cwd", "agentId", "agentType"] as const;

/** The span's fields that Postgres cannot store as they are (they hold NUL): its bytes can. */
export function unstorableFields(
  span: Pick<SpanSubmission, (typeof STORED_AS_TEXT)[number]>,
): Array<(typeof STORED_AS_TEXT)[number]> {
  return STORED_AS_TEXT.filter((field) => holdsNul(span[field]));
}

/** NUL or a lone surrogate in a text field. */
function holdsNul(value: unknown): boolean {
  return typeof value === "string" && jsonbCannotHold(value);
}

/** A session as upsertSession answers it. */
export interface UpsertedSession {
  id: string;
  projectId: string;
  externalId: string;
  runtime: string;
  title: string | null;
  cwd: string | null;
  startedAt: Date | null;
}

/** What runs one statement: the pool, or a connection inside a transaction. */
type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Creates the session for a runtime's external id, or updates what the runtime now says about it.
 * Which submission created it is decided by the insert itself (ON CONFLICT DO NOTHING RETURNING):
 * of concurrent first submissions exactly one reports `created`. On `client`, it joins that
 * connection's transaction (an import creates its sessions with its spans, all or nothing).
 */
export async function upsertSession(
  projectId: string,
  input: SessionInput,
  client?: Queryable,
): Promise<{ session: UpsertedSession; created: boolean }> {
  rejectUnstorableText([
    ["externalId", input.externalId],
    ["runtime", input.runtime],
    ["title", input.title],
    ["cwd", input.cwd],
  ]);
  const run = async (text: string, values: unknown[]) =>
    client ? (await client.query<SessionRow>(text, values)).rows : await rawQuery<SessionRow>(text, values);
  // An ISO time cast to timestamp keeps its UTC digits, whatever the connection's time zone.
  const startedAt = input.startedAt ? input.startedAt.toISOString() : null;
  const inserted = await run(
    `insert into session (id, project_id, external_id, runtime, title, cwd, started_at)
     values ($1, $2, $3, $4, $5, $6, $7::timestamp)
     on conflict (project_id, external_id) do nothing
     returning ${SESSION_COLUMNS}`,
    [randomUUID(), projectId, input.externalId, input.runtime, input.title ?? null, input.cwd ?? null, startedAt],
  );
  if (inserted[0]) return { session: sessionOf(inserted[0]), created: true };
  // Fields left out are kept; the update waits for a concurrent creator's transaction to end.
  const updated = await run(
    `update session set runtime = $3,
            title = case when $4 then $5 else title end,
            cwd = case when $6 then $7 else cwd end,
            started_at = case when $8 then $9::timestamp else started_at end
      where project_id = $1 and external_id = $2
      returning ${SESSION_COLUMNS}`,
    [
      projectId,
      input.externalId,
      input.runtime,
      input.title !== undefined,
      input.title ?? null,
      input.cwd !== undefined,
      input.cwd ?? null,
      input.startedAt !== undefined,
      startedAt,
    ],
  );
  // Neither inserted nor found: its creator rolled back between the two statements; try again.
  if (!updated[0]) return upsertSession(projectId, input, client);
  return { session: sessionOf(updated[0]), created: false };
}

interface SessionRow {
  id: string;
  project_id: string;
  external_id: string;
  runtime: string;
  title: string | null;
  cwd: string | null;
  /** ISO text in UTC (the column is a timestamp without time zone). */
  started_at: string | null;
}

const SESSION_COLUMNS = `id::text as id, project_id::text as project_id, external_id, runtime, title, cwd,
  to_char(started_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at`;

function sessionOf(row: SessionRow): UpsertedSession {
  return {
    id: row.id,
    projectId: row.project_id,
    externalId: row.external_id,
    runtime: row.runtime,
    title: row.title,
    cwd: row.cwd,
    startedAt: row.started_at === null ? null : new Date(row.started_at),
  };
}

/**
 * Appends a batch of spans to a session in one transaction: all of it lands or none of it does.
 * Resubmitting a stored span (same seq, same bytes) returns its stored result; the same seq with
 * other bytes is a CONFLICT that changes nothing. The transaction runs on a raw connection: a batch
 * is a few bulk writes with large payloads, which Prisma spent most of the time handling.
 */
export interface AppendOptions {
  /**
   * Where an original's TTL counts from: when Custodian received it (the default, DESIGN.md
   * "Imports"), or when the span occurred (an import of old history that asks for it).
   */
  ttlFrom?: "received" | "occurred";
  /** The time of receipt (tests and imports pass their clock). */
  now?: Date;
  /**
   * A connection inside a transaction to write the batch in (under a savepoint), instead of a
   * transaction of its own: an import writes a file's sessions and spans all or nothing.
   */
  client?: pg.PoolClient;
  /** The batch's rows, built ahead of the transaction (./prepare): an import analyses a batch while the one before is written. */
  ahead?: RowsAhead;
}

/** Rows (and their COPY text) built ahead with `policy` for a session whose working directory was `cwd`; used when it still is. */
export interface RowsAhead {
  cwd: string | null;
  policy: RetentionPolicy;
  rowsFor(fresh: HashedSpan[]): { rows: BatchRows; inserted: IngestedSpan[]; copy?: CopyText[] };
}

export async function appendSpans(
  projectId: string,
  sessionId: string,
  spans: SpanSubmission[],
  options: AppendOptions = {},
): Promise<IngestedSpan[]> {
  rejectUnstorableText(
    spans.flatMap((span, i) => unstorableFields(span).map((field): [string, unknown] => [`spans.${i}.${field}`, span[field]])),
  );
  const hashed = spans.map((span) => ({ span, sha256: sha256Hex(span.body) }));
  rejectInconsistentBatch(hashed);
  const policy = options.ahead?.policy ?? (await loadPolicy(db(), projectId));
  try {
    return await writeBatch(projectId, sessionId, policy, hashed, receiptOf(options), options.client, options.ahead);
  } catch (error) {
    // A concurrent submission of the same seq won the race: run again to answer as a resubmission.
    if (isUniqueViolation(error))
      return writeBatch(projectId, sessionId, policy, hashed, receiptOf(options), options.client, options.ahead);
    throw error;
  }
}

/** The time TTLs count from, or null when they count from each span's occurrence. */
export function receiptOf(options: AppendOptions): Date | null {
  return options.ttlFrom === "occurred" ? null : (options.now ?? new Date());
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}

const UNIQUE_VIOLATION = "23505";

export interface HashedSpan {
  span: SpanSubmission;
  sha256: string;
}

interface StoredSpanRow {
  id: string;
  seq: number;
  sha256: string;
  class: EvidentialClass;
  atoms: number;
}

async function writeBatch(
  projectId: string,
  sessionId: string,
  policy: RetentionPolicy,
  hashed: HashedSpan[],
  receivedAt: Date | null,
  outer?: pg.PoolClient,
  ahead?: RowsAhead,
): Promise<IngestedSpan[]> {
  return (outer ? inSavepoint(outer) : rawTransaction)(async (client) => {
    const session = await client.query<{ cwd: string | null }>("select cwd from session where id = $1 and project_id = $2", [
      sessionId,
      projectId,
    ]);
    if (session.rowCount === 0) throw new AppError("NOT_FOUND", "Session not found");
    const { cwd } = session.rows[0]!;

    const stored = await client.query<StoredSpanRow>(
      `select s.id::text as id, s.seq, s.sha256, s.class::text as class,
              (select count(*) from evidence_atom a where a.session_id = s.session_id and a.span_id = s.id)::int as atoms
         from span s where s.session_id = $1 and s.seq = any($2::int[])`,
      [sessionId, hashed.map((h) => h.span.seq)],
    );
    const storedBySeq = new Map(stored.rows.map((row) => [row.seq, row]));
    const conflicts: FieldError[] = [];
    hashed.forEach(({ span, sha256 }, index) => {
      const row = storedBySeq.get(span.seq);
      if (row && row.sha256 !== sha256) {
        conflicts.push({
          path: `spans.${index}.seq`,
          message: `seq ${span.seq} is already stored with other bytes (sha256 ${row.sha256})`,
        });
      }
    });
    if (conflicts.length > 0) {
      throw new AppError("CONFLICT", "Some spans conflict with spans already stored; nothing was written", { fields: conflicts });
    }

    const results = new Map<number, IngestedSpan>();
    for (const row of stored.rows) {
      results.set(row.seq, {
        id: row.id,
        seq: row.seq,
        class: row.class,
        atomCount: row.atoms,
        sha256: row.sha256,
        created: false,
      });
    }
    const fresh = hashed.filter(({ span }) => !results.has(span.seq));
    const uniqueFresh = [...new Map(fresh.map((h) => [h.span.seq, h])).values()];
    const { rows, inserted, copy }: ReturnType<RowsAhead["rowsFor"]> =
      ahead && ahead.cwd === cwd ? ahead.rowsFor(uniqueFresh) : batchRows(sessionId, cwd, policy, uniqueFresh, receivedAt);
    await writeRows(client, rows, databaseMode() === "embedded" ? "insert" : "copy", copy);
    for (const result of inserted) results.set(result.seq, result);

    if (uniqueFresh.length > 0) {
      const latest = uniqueFresh.reduce(
        (max, h) => (h.span.occurredAt > max ? h.span.occurredAt : max),
        uniqueFresh[0]!.span.occurredAt,
      );
      // An ISO time cast to timestamp keeps its UTC digits, whatever the connection's time zone.
      await client.query("update session set last_activity_at = greatest(last_activity_at, $2::timestamp) where id = $1", [
        sessionId,
        latest.toISOString(),
      ]);
    }
    return hashed.map(({ span }) => results.get(span.seq)!);
  });
}

/** Runs `fn` on a connection already in a transaction, under a savepoint it rolls back to when `fn` throws. */
function inSavepoint(client: pg.PoolClient) {
  return async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    await client.query("savepoint append_batch");
    try {
      const out = await fn(client);
      await client.query("release savepoint append_batch");
      return out;
    } catch (error) {
      await client.query("rollback to savepoint append_batch");
      throw error;
    }
  };
}

function rejectInconsistentBatch(hashed: HashedSpan[]) {
  const firstBySeq = new Map<number, string>();
  const fields: FieldError[] = [];
  hashed.forEach(({ span, sha256 }, index) => {
    const seen = firstBySeq.get(span.seq);
    if (seen === undefined) firstBySeq.set(span.seq, sha256);
    else if (seen !== sha256)
      fields.push({ path: `spans.${index}.seq`, message: `seq ${span.seq} appears twice in this batch with different bytes` });
  });
  if (fields.length > 0) throw new AppError("VALIDATION_FAILED", "The batch contradicts itself", { fields });
}

/**
 * The rows a batch of new spans writes: analysis, hashes, TTLs (counted from `receivedAt`, or from
 * each span's occurrence when it is null).
 */
export function batchRows(
  sessionId: string,
  cwd: string | null,
  policy: RetentionPolicy,
  batch: HashedSpan[],
  receivedAt: Date | null,
): { rows: BatchRows; inserted: IngestedSpan[] } {
  const spanRows: SpanRow[] = [];
  const originalRows: OriginalRow[] = [];
  const atomRows: AtomRow[] = [];
  const results: IngestedSpan[] = [];

  for (const { span, sha256 } of batch) {
    const id = randomUUID();
    const analysis = analyzeSpan({
      body: span.body,
      kind: span.kind,
      role: span.role ?? undefined,
      toolName: span.toolName ?? undefined,
      toolInput: span.toolInput,
      exitCode: span.exitCode ?? undefined,
      cwd: span.cwd ?? cwd ?? undefined,
      toolAnnotations: span.toolAnnotations,
    });
    const cls = analysis.classification.class;
    const expiresAt = storableTime(expiresAtFor(cls, receivedAt ?? span.occurredAt, policy));
    const atoms = atomRowsFor(sessionId, id, analysis.atoms);
    spanRows.push({
      sessionId,
      id,
      seq: span.seq,
      kind: span.kind,
      role: span.role ?? null,
      toolName: span.toolName ?? null,
      toolInput: encodeToolInput(span.toolInput),
      exitCode: span.exitCode ?? null,
      outcome: span.outcome ?? null,
      agentId: span.agentId ?? null,
      agentType: span.agentType ?? null,
      sourceLine: span.sourceLine ?? null,
      occurredAt: span.occurredAt,
      class: cls,
      classReasons: JSON.stringify(analysis.classification.reasons),
      byteLength: span.body.byteLength,
      sha256,
      original: { expiresAt },
    });
    originalRows.push({ sessionId, spanId: id, bytes: span.body, sha256, expiresAt });
    atomRows.push(...atoms);
    results.push({ id, seq: span.seq, class: cls, atomCount: atoms.length, sha256, created: true });
  }

  return { rows: { spans: spanRows, originals: originalRows, atoms: atomRows }, inserted: results };
}
