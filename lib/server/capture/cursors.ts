/**
 * The watcher's cursor per local transcript file, kept in the database beside what it imported:
 * a restart reads them back, so a file is never sent twice and nothing appended while the watcher
 * was down is missed. The reader's own state is opaque here (JSON the reader wrote).
 */
import { db, rawQuery } from "@/lib/db/client";

export interface TranscriptCursorRow {
  path: string;
  runtime: string;
  identity: string;
  size: number;
  mtime: Date;
  state: unknown;
  bytes: number;
  error: string | null;
  deleteAt: Date | null;
}

const toRow = (r: {
  path: string;
  runtime: string;
  identity: string;
  size: bigint;
  mtime: Date;
  state: unknown;
  bytes: bigint;
  error: string | null;
  deleteAt: Date | null;
}): TranscriptCursorRow => ({ ...r, size: Number(r.size), bytes: Number(r.bytes) });

/** Every cursor of the project, by path. */
export async function loadTranscriptCursors(projectId: string): Promise<Map<string, TranscriptCursorRow>> {
  const rows = await db().transcriptCursor.findMany({ where: { projectId } });
  return new Map(rows.map((r) => [r.path, toRow(r)]));
}

/**
 * One file's cursor, or null when the file was never read. Read on the pool without Prisma: an HTTP
 * hook waits for it, and Prisma's work per request cost more than the read. Times hold UTC digits:
 * read as milliseconds since the epoch of those digits, as Prisma reads them.
 */
export async function loadTranscriptCursor(projectId: string, path: string): Promise<TranscriptCursorRow | null> {
  const [row] = await rawQuery<{
    runtime: string;
    identity: string;
    size: string;
    mtime: number;
    state: unknown;
    bytes: string;
    error: string | null;
    delete_at: number | null;
  }>(
    `select runtime, identity, size::text as size, (extract(epoch from mtime) * 1000)::float8 as mtime, state,
            bytes::text as bytes, error, (extract(epoch from delete_at) * 1000)::float8 as delete_at
       from transcript_cursor where project_id = $1::uuid and path = $2`,
    [projectId, path],
  );
  if (!row) return null;
  const { delete_at: deleteAt, ...rest } = row;
  return {
    ...rest,
    path,
    size: Number(row.size),
    mtime: new Date(row.mtime),
    bytes: Number(row.bytes),
    deleteAt: deleteAt === null ? null : new Date(deleteAt),
  };
}

/**
 * Writes one file's cursor. On the pool without Prisma, as it is read: an HTTP hook's capture writes
 * it after every event, and Prisma's compiling of the upsert cost more CPU than the statement, in the
 * server that answers the next hook. Times are written as their UTC digits (the pool's dates are UTC).
 */
export async function saveTranscriptCursor(projectId: string, row: TranscriptCursorRow): Promise<void> {
  await rawQuery(
    `insert into transcript_cursor (project_id, path, runtime, identity, size, mtime, state, bytes, error, delete_at, updated_at)
     values ($1::uuid, $2, $3, $4, $5::bigint, $6::timestamp, $7::jsonb, $8::bigint, $9, $10::timestamp, $11::timestamp)
     on conflict (project_id, path) do update
       set runtime = excluded.runtime, identity = excluded.identity, size = excluded.size, mtime = excluded.mtime,
           state = excluded.state, bytes = excluded.bytes, error = excluded.error, delete_at = excluded.delete_at,
           updated_at = excluded.updated_at`,
    [
      projectId,
      row.path,
      row.runtime,
      row.identity,
      String(row.size),
      row.mtime,
      JSON.stringify(row.state ?? null),
      String(row.bytes),
      row.error,
      row.deleteAt,
      new Date(),
    ],
  );
}

/** How far ahead the watcher and the dashboard warn of a runtime's cleanup. */
export const AT_RISK_WARN_DAYS = 7;

export interface TranscriptAtRisk {
  path: string;
  runtime: string;
  deleteAt: Date;
  /** Bytes not imported yet (the whole file when its import failed from the start). */
  missingBytes: number;
  error: string | null;
}

/**
 * Local transcripts the runtime's own cleanup deletes within `withinDays` that are not fully
 * imported (bytes short of the size, or the last import failed): what the watcher warns about, and
 * what a dashboard can list.
 */
export async function transcriptsAtRisk(
  projectId: string,
  now: Date,
  withinDays = AT_RISK_WARN_DAYS,
): Promise<TranscriptAtRisk[]> {
  const until = new Date(now.getTime() + withinDays * 86_400_000);
  const rows = await db().$queryRaw<
    Array<{ path: string; runtime: string; delete_at: Date; size: bigint; bytes: bigint; error: string | null }>
  >`select path, runtime, delete_at, size, bytes, error from transcript_cursor
    where project_id = ${projectId}::uuid and delete_at is not null and delete_at <= ${until}
      and (bytes < size or error is not null)
    order by delete_at, path`;
  return rows.map((r) => ({
    path: r.path,
    runtime: r.runtime,
    deleteAt: r.delete_at,
    missingBytes: Number(r.size - r.bytes),
    error: r.error,
  }));
}
