/**
 * The watcher's cursor per local transcript file, kept in the database beside what it imported:
 * a restart reads them back, so a file is never sent twice and nothing appended while the watcher
 * was down is missed. The reader's own state is opaque here (JSON the reader wrote).
 */
import { db, rawQuery } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

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

export async function saveTranscriptCursor(projectId: string, row: TranscriptCursorRow): Promise<void> {
  const data = {
    runtime: row.runtime,
    identity: row.identity,
    size: BigInt(row.size),
    mtime: row.mtime,
    state: row.state as Prisma.InputJsonValue,
    bytes: BigInt(row.bytes),
    error: row.error,
    deleteAt: row.deleteAt,
  };
  await db().transcriptCursor.upsert({
    where: { projectId_path: { projectId, path: row.path } },
    create: { projectId, path: row.path, ...data },
    update: data,
  });
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
