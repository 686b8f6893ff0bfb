import type { DbTx } from "@/lib/db/client";
import type { OriginalFacts } from "@/lib/evidence/types";
import { groupBy } from "@/lib/core/group";

interface OriginalRow {
  span_id: string;
  present: boolean;
  hash_matches: boolean;
  expires_at: Date | null;
  pinned: boolean;
}

/**
 * The state of the originals of some spans of one session. A span with no original row is absent
 * from the map: it was never received.
 *
 * `recorded` (the default) reads the hash verification recorded when the bytes were last written
 * or scrubbed (span_original.bytes_state, kept by a trigger), so no bytes are read at all. `live`
 * hashes the stored bytes again in the database: the gate uses it, because a reclamation it allows
 * removes the span from the transcript for good and a batch of spans is cheap to hash. A live
 * mismatch the record missed (bytes damaged behind the database's back) is recorded on the spot,
 * so every other reader sees it too.
 */
export async function loadOriginalFacts(
  tx: DbTx,
  sessionId: string,
  spanIds: string[],
  verify: "recorded" | "live" = "recorded",
): Promise<Map<string, OriginalFacts>> {
  if (spanIds.length === 0) return new Map();
  const rows =
    verify === "live"
      ? await tx.$queryRaw<OriginalRow[]>`
          select o.span_id::text as span_id,
                 o.bytes is not null as present,
                 (o.bytes is not null and encode(sha256(o.bytes), 'hex') = s.sha256) as hash_matches,
                 o.expires_at, o.pinned
            from span_original o
            join span s on s.session_id = o.session_id and s.id = o.span_id
           where o.session_id = ${sessionId}::uuid and o.span_id = any(${spanIds}::uuid[])`
      : await tx.$queryRaw<OriginalRow[]>`
          select o.span_id::text as span_id,
                 o.bytes_state <> 'DELETED' as present,
                 o.bytes_state = 'HELD' as hash_matches,
                 o.expires_at, o.pinned
            from span_original o
           where o.session_id = ${sessionId}::uuid and o.span_id = any(${spanIds}::uuid[])`;
  if (verify === "live") {
    const damaged = rows.filter((r) => r.present && !r.hash_matches).map((r) => r.span_id);
    if (damaged.length > 0) await recordDamaged(tx, sessionId, damaged);
  }
  return new Map(
    rows.map((row) => [
      row.span_id,
      { present: row.present, hashMatches: row.hash_matches, expiresAt: row.expires_at, pinned: row.pinned },
    ]),
  );
}

/**
 * recordDamaged for spans of any sessions, one statement per session, side by side: how many were
 * recorded as held and are not any more.
 */
export async function recordDamagedSpans(
  tx: DbTx,
  damaged: ReadonlyArray<{ sessionId: string; spanId: string }>,
): Promise<number> {
  const spanIds = (spans: typeof damaged) => spans.map((d) => d.spanId);
  const bySession = [...groupBy(damaged, (d) => d.sessionId)];
  const recorded = await Promise.all(bySession.map(([sessionId, spans]) => recordDamaged(tx, sessionId, spanIds(spans))));
  return recorded.reduce((sum, n) => sum + n, 0);
}

/**
 * Re-verifies (and so records) originals found damaged: the trigger on span_original hashes them
 * again. Returns how many were recorded as held and are not any more.
 */
export async function recordDamaged(tx: DbTx, sessionId: string, spanIds: string[]): Promise<number> {
  const rows = await tx.$queryRaw<Array<{ held: boolean }>>`
    update span_original set bytes_state = bytes_state
     where session_id = ${sessionId}::uuid and span_id = any(${spanIds}::uuid[]) and bytes_state = 'HELD'
    returning bytes_state = 'HELD' as held`;
  return rows.filter((r) => !r.held).length;
}
