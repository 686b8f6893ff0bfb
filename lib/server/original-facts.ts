import type { DbTx } from "@/lib/db/client";
import type { OriginalFacts } from "@/lib/evidence/types";

interface OriginalRow {
  span_id: string;
  present: boolean;
  hash_matches: boolean;
  expires_at: Date | null;
  pinned: boolean;
}

/**
 * The state of the originals of some spans of one session, with the hash verified in the database
 * (sha256 over the stored bytes against the span's recorded sha256) so no bytes cross the wire.
 * A span with no original row is absent from the map: it was never received.
 */
export async function loadOriginalFacts(tx: DbTx, sessionId: string, spanIds: string[]): Promise<Map<string, OriginalFacts>> {
  if (spanIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<OriginalRow[]>`
    select o.span_id::text as span_id,
           o.bytes is not null as present,
           (o.bytes is not null and encode(sha256(o.bytes), 'hex') = s.sha256) as hash_matches,
           o.expires_at, o.pinned
      from span_original o
      join span s on s.session_id = o.session_id and s.id = o.span_id
     where o.session_id = ${sessionId}::uuid and o.span_id = any(${spanIds}::uuid[])`;
  return new Map(
    rows.map((row) => [
      row.span_id,
      { present: row.present, hashMatches: row.hash_matches, expiresAt: row.expires_at, pinned: row.pinned },
    ]),
  );
}
