/**
 * What each span of a page of the transcript says, for the session page's span list: the first
 * bytes of its held original (a prefix read by the database, so a list of large originals costs a
 * page of prefixes, never the originals), and for a span a summary replaced, the first bytes of that
 * summary and what its text dropped of the span's atoms.
 */
import { rawQuery } from "@/lib/db/client";
import type { KindCount } from "@/lib/evidence/manifest";

/** Bytes of each original read for the list: a few lines, enough to tell one span from another. */
export const LIST_EXCERPT_BYTES = 1024;

export interface ListExcerpt {
  /** A call's tool name. */
  toolName: string | null;
  /** The first bytes of the span's original, or null when none is held (never stored, swept, lost). */
  head: Uint8Array | null;
  /** The whole original's length (null when none is held). */
  byteLength: number | null;
  /** Why the original is gone, when the sweeper or an operator deleted it. */
  deleteReason: string | null;
  /** The summary that replaced the span: its first bytes and what its text lacks of the span's atoms. */
  replacedBy: { summaryId: string; head: Uint8Array | null; byteLength: number | null; dropped: KindCount[] | null } | null;
}

interface ExcerptRow {
  id: string;
  tool_name: string | null;
  head: Buffer | null;
  byte_length: number | null;
  delete_reason: string | null;
  summary_id: string | null;
  summary_head: Buffer | null;
  summary_length: number | null;
  dropped: unknown;
}

/** The excerpts of these spans of the session (a page of its list), by span id. */
export async function spanListExcerpts(
  sessionId: string,
  spanIds: readonly string[],
  bytes = LIST_EXCERPT_BYTES,
): Promise<Map<string, ListExcerpt>> {
  if (spanIds.length === 0) return new Map();
  // octet_length of a stored bytea reads its length from the toast header, and substring fetches
  // only the slice asked for: neither reads a large original whole.
  const rows = await rawQuery<ExcerptRow>(
    `select s.id::text as id, s.tool_name,
            substring(o.bytes from 1 for $3::int) as head, octet_length(o.bytes)::int as byte_length, o.delete_reason,
            s.replacing_summary_id::text as summary_id,
            substring(so.bytes from 1 for $3::int) as summary_head, octet_length(so.bytes)::int as summary_length,
            s.replaced_dropped as dropped
       from span s
       left join span_original o on o.session_id = s.session_id and o.span_id = s.id
       left join span_original so on so.session_id = s.session_id and so.span_id = s.replacing_summary_id
      where s.session_id = $1::uuid and s.id = any($2::uuid[])`,
    [sessionId, [...spanIds], bytes],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        toolName: r.tool_name,
        head: asBytes(r.head),
        byteLength: r.head === null ? null : r.byte_length,
        deleteReason: r.delete_reason,
        replacedBy:
          r.summary_id === null
            ? null
            : {
                summaryId: r.summary_id,
                head: asBytes(r.summary_head),
                byteLength: r.summary_head === null ? null : r.summary_length,
                dropped: asKindCounts(r.dropped),
              },
      },
    ]),
  );
}

function asBytes(buffer: Buffer | null): Uint8Array | null {
  return buffer === null ? null : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** The stored `dropped` list as kind counts (null when none was recorded), leaving out anything not of that shape. */
function asKindCounts(value: unknown): KindCount[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter(
    (v): v is KindCount =>
      typeof v === "object" && v !== null && typeof v.kind === "string" && typeof v.count === "number" && v.count > 0,
  );
}
