import { AppError, type FieldError } from "@/lib/core/errors";
import { MAX_SPAN_BODY_BYTES } from "@/lib/core/limits";
import type pg from "pg";
import { databaseMode, db, rawTransaction } from "@/lib/db/client";
import type { EvidentialClass, RetentionPolicy } from "@/lib/evidence/types";
import { type BatchRows, type CopyText, writeRows } from "./bulk-insert";
import { sha256Hex } from "@/lib/core/hash";
import { loadPolicy } from "@/lib/server/retention";
import { batchRows } from "./batch-rows";
import type { HashedSpan, IngestedSpan, SpanSubmission } from "./span-submission";
import { rejectUnstorableText, unstorableFields } from "./text-fields";

export { batchRows } from "./batch-rows";
export { type SessionInput, type UpsertedSession, upsertSession } from "./session";
export type { HashedSpan, IngestedSpan, SpanSubmission } from "./span-submission";
export { unstorableFields } from "./text-fields";

/**
 * Appends a batch of spans to a session in one transaction: all of it lands or none of it does.
 * Resubmitting a stored span (same seq, same bytes) returns its stored result; the same seq with
 * other bytes is a CONFLICT that changes nothing. The transaction runs on a raw connection: a batch
 * is a few bulk writes with large payloads, which Prisma spent most of the time handling.
 */
export interface AppendOptions {
  /**
   * Where an original's TTL counts from: when Custodian received it (the default, docs/design.md
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
  /**
   * The batch's rows, built ahead of the transaction (./prepare): an import analyses a batch while
   * the one before is written; a hook's sync, while the transaction's first reads are on their way
   * (a promise, awaited once they are answered).
   */
  ahead?: RowsAhead | Promise<RowsAhead>;
  /** The project's policy, when the caller has loaded it already (a hook's sync loads it once for ingest and the gate). */
  policy?: RetentionPolicy;
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
  rejectOverLimit(spans);
  rejectUnstorableText(
    spans.flatMap((span, i) => unstorableFields(span).map((field): [string, unknown] => [`spans.${i}.${field}`, span[field]])),
  );
  const hashed = spans.map((span) => ({ span, sha256: sha256Hex(span.body) }));
  rejectInconsistentBatch(hashed);
  const { ahead } = options;
  // A failure of rows built ahead is met where they are awaited, in the transaction.
  if (ahead instanceof Promise) ahead.catch(() => {});
  const policy = options.policy ?? (ahead instanceof Promise ? undefined : ahead?.policy) ?? (await loadPolicy(db(), projectId));
  try {
    return await writeBatch(projectId, sessionId, policy, hashed, receiptOf(options), options.client, ahead);
  } catch (error) {
    // A concurrent submission of the same seq won the race: run again to answer as a resubmission.
    if (isUniqueViolation(error))
      return writeBatch(projectId, sessionId, policy, hashed, receiptOf(options), options.client, ahead);
    throw error;
  }
}

/**
 * The one cap on a span's body, held here too so that no path (the API, an import, a hook, OTLP)
 * can store a larger one: the edges check it first and skip or refuse with their own reasons.
 */
function rejectOverLimit(spans: readonly SpanSubmission[]): void {
  const fields: FieldError[] = [];
  spans.forEach((span, i) => {
    if (span.body.byteLength > MAX_SPAN_BODY_BYTES)
      fields.push({ path: `spans.${i}.body`, message: `${span.body.byteLength} bytes; the limit is ${MAX_SPAN_BODY_BYTES}` });
  });
  if (fields.length > 0)
    throw new AppError("PAYLOAD_TOO_LARGE", `A span body exceeds ${MAX_SPAN_BODY_BYTES} bytes`, {
      fields,
      details: { maxSpanBytes: MAX_SPAN_BODY_BYTES },
    });
}

/** The time TTLs count from, or null when they count from each span's occurrence. */
export function receiptOf(options: AppendOptions): Date | null {
  return options.ttlFrom === "occurred" ? null : (options.now ?? new Date());
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION;
}

const UNIQUE_VIOLATION = "23505";

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
  aheadOrPending?: RowsAhead | Promise<RowsAhead>,
): Promise<IngestedSpan[]> {
  return (outer ? inSavepoint(outer) : rawTransaction)(async (client) => {
    // The session's working directory and the batch's spans already stored, in one round trip.
    const found = await client.query<{ cwd: string | null } & { [K in keyof StoredSpanRow]: StoredSpanRow[K] | null }>(
      `select se.cwd, st.id, st.seq, st.sha256, st.class, st.atoms
         from session se
         left join lateral (
           select s.id::text as id, s.seq, s.sha256, s.class::text as class,
                  (select count(*) from evidence_atom a where a.session_id = s.session_id and a.span_id = s.id)::int as atoms
             from span s where s.session_id = se.id and s.seq = any($3::int[])) st on true
        where se.id = $1 and se.project_id = $2`,
      [sessionId, projectId, hashed.map((h) => h.span.seq)],
    );
    if (found.rowCount === 0) throw new AppError("NOT_FOUND", "Session not found");
    const { cwd } = found.rows[0]!;
    const stored = found.rows.filter((row): row is typeof row & StoredSpanRow => row.id !== null);
    const storedBySeq = new Map(stored.map((row) => [row.seq, row]));
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
    for (const row of stored) {
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
    const ahead = await aheadOrPending;
    const { rows, inserted, copy }: ReturnType<RowsAhead["rowsFor"]> =
      ahead && ahead.cwd === cwd && ahead.policy === policy
        ? ahead.rowsFor(uniqueFresh)
        : batchRows({ id: sessionId, projectId, cwd }, policy, uniqueFresh, receivedAt);
    await writeRows(client, rows, databaseMode() === "embedded" ? "insert" : "copy", copy);
    for (const result of inserted) results.set(result.seq, result);

    if (uniqueFresh.length > 0) {
      const latest = uniqueFresh.reduce(
        (max, h) => (h.span.occurredAt > max ? h.span.occurredAt : max),
        uniqueFresh[0]!.span.occurredAt,
      );
      // Last activity is the transcript's own time: a session's first spans set it to theirs (until
      // then it holds when the session was received, which an imported transcript of last year is
      // not active at); later spans move it forward only. The span counter already holds this
      // batch (its trigger ran with the rows). An ISO time cast to timestamp keeps its UTC digits,
      // whatever the connection's time zone.
      await client.query(
        `update session
            set last_activity_at = case when span_count <= $3 then $2::timestamp else greatest(last_activity_at, $2::timestamp) end
          where id = $1`,
        [sessionId, latest.toISOString(), uniqueFresh.length],
      );
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
