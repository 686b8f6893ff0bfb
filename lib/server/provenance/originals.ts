import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { rawQuery } from "@/lib/db/client";
import { ttlPassed } from "@/lib/evidence/expiry";

/** An original that is held and verifies: what a reader needs before it reads any of its bytes. */
export interface HeldOriginal {
  spanId: string;
  sessionId: string;
  sha256: string;
  byteLength: number;
  expiresAt: Date | null;
  pinned: boolean;
}

/** Bytes read from the database per query when an original is streamed. */
export const ORIGINAL_CHUNK_BYTES = 1 << 20;

interface OriginalRow {
  span_id: string;
  session_id: string;
  sha256: string;
  byte_length: number | null;
  intact: boolean | null;
  expires_at: Date | null;
  pinned: boolean | null;
  deleted_at: Date | null;
  delete_reason: string | null;
}

/**
 * The facts of a span's original (a span of the caller's project), verified against the span's
 * sha256 by the database, which hashes the bytes where they lie: no reader loads a large original
 * into the server's memory to check it. GONE (with the reason) once the bytes were swept, passed
 * their TTL unpinned, or no longer verify.
 */
export async function heldOriginal(projectId: string, spanId: string, now = new Date()): Promise<HeldOriginal> {
  if (!isUuid(spanId)) throw new AppError("NOT_FOUND", "Span not found");
  const [row] = await rawQuery<OriginalRow>(
    `select s.id::text as span_id, s.session_id::text as session_id, s.sha256,
            octet_length(o.bytes)::int as byte_length,
            case when o.bytes is not null then encode(sha256(o.bytes), 'hex') = s.sha256 end as intact,
            o.expires_at, o.pinned, o.deleted_at, o.delete_reason
       from span s
       join session x on x.id = s.session_id and x.project_id = $2::uuid
       left join span_original o on o.session_id = s.session_id and o.span_id = s.id
      where s.id = $1::uuid`,
    [spanId, projectId],
  );
  if (!row) throw new AppError("NOT_FOUND", "Span not found");
  if (row.byte_length === null) {
    throw new AppError("GONE", `The original is gone: ${row.delete_reason ?? "it was never received"}`, {
      details: { deletedAt: row.deleted_at?.toISOString() ?? null },
    });
  }
  if (row.expires_at && ttlPassed({ pinned: row.pinned ?? false, expiresAt: row.expires_at }, now)) {
    throw new AppError("GONE", "The original's TTL passed and it is not pinned; it awaits deletion", {
      details: { expiresAt: row.expires_at.toISOString() },
    });
  }
  if (!row.intact) throw new AppError("GONE", "The held bytes no longer match the span's sha256");
  return {
    spanId: row.span_id,
    sessionId: row.session_id,
    sha256: row.sha256,
    byteLength: row.byte_length,
    expiresAt: row.expires_at,
    pinned: row.pinned ?? false,
  };
}

/**
 * Bytes `start` to `end` (end exclusive, both within the original) of a held original, read by the
 * database as a substring: a reader of a part holds that part, never the whole.
 */
export async function readOriginalBytes(original: HeldOriginal, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array(0);
  const [row] = await rawQuery<{ part: Buffer | null }>(
    "select substring(bytes from $3::int for $4::int) as part from span_original where session_id = $1::uuid and span_id = $2::uuid",
    [original.sessionId, original.spanId, start + 1, end - start],
  );
  // Swept between the check and this read: the reader is told, never given short bytes.
  if (!row?.part || row.part.byteLength !== end - start) throw new AppError("GONE", "The original was deleted while it was read");
  return new Uint8Array(row.part.buffer, row.part.byteOffset, row.part.byteLength);
}

/** Bytes `start` to `end` of a held original, a chunk at a time, each read as it is asked for. */
export async function* originalChunks(
  original: HeldOriginal,
  start: number,
  end: number,
  chunkBytes = ORIGINAL_CHUNK_BYTES,
): AsyncGenerator<Uint8Array> {
  for (let at = start; at < end; at += chunkBytes) yield await readOriginalBytes(original, at, Math.min(end, at + chunkBytes));
}
