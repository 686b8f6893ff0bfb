/**
 * What the span page shows of an original: at most ORIGINAL_PAGE_BYTES of it, from its start or
 * around a cited range, read by the database as a substring and hashed where it lies, so a page of a
 * large original costs its excerpt, not the original.
 */
import { ORIGINAL_PAGE_BYTES } from "@/lib/core/limits";
import { rawQuery } from "@/lib/db/client";

/** Bytes shown before a cited range, so the citation is read in its context. */
const CONTEXT_BYTES = 1024;

export interface SpanExcerpt {
  /** The shown bytes: `start` to `end` (exclusive) of the original. */
  bytes: Uint8Array;
  start: number;
  end: number;
  /** The whole original's length. */
  byteLength: number;
}

/** The window shown of an original of `byteLength` bytes: its start, or the one holding `cited`'s start. */
export function excerptWindow(
  byteLength: number,
  cited?: { byteStart: number; byteEnd: number },
): { start: number; end: number } {
  if (byteLength <= ORIGINAL_PAGE_BYTES || !cited) return { start: 0, end: Math.min(byteLength, ORIGINAL_PAGE_BYTES) };
  const start = Math.max(0, Math.min(cited.byteStart - CONTEXT_BYTES, byteLength - ORIGINAL_PAGE_BYTES));
  return { start, end: start + ORIGINAL_PAGE_BYTES };
}

/**
 * The excerpt of a span's held original and the sha256 its bytes hash to now, or nulls when no
 * bytes are held.
 */
export async function readSpanExcerpt(
  sessionId: string,
  spanId: string,
  cited?: { byteStart: number; byteEnd: number },
): Promise<{ excerpt: SpanExcerpt | null; liveSha256: string | null }> {
  const [facts] = await rawQuery<{ byte_length: number | null; sha256: string | null }>(
    `select octet_length(bytes)::int as byte_length, encode(sha256(bytes), 'hex') as sha256
       from span_original where session_id = $1::uuid and span_id = $2::uuid`,
    [sessionId, spanId],
  );
  if (!facts || facts.byte_length === null) return { excerpt: null, liveSha256: null };
  const { start, end } = excerptWindow(facts.byte_length, cited);
  const [part] = await rawQuery<{ bytes: Buffer | null }>(
    "select substring(bytes from $3::int for $4::int) as bytes from span_original where session_id = $1::uuid and span_id = $2::uuid",
    [sessionId, spanId, start + 1, end - start],
  );
  // Deleted between the two reads: shown as gone.
  if (!part?.bytes) return { excerpt: null, liveSha256: null };
  const bytes = new Uint8Array(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength);
  return { excerpt: { bytes, start, end: start + bytes.byteLength, byteLength: facts.byte_length }, liveSha256: facts.sha256 };
}
