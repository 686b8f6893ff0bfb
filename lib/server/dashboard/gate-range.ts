/**
 * The seq range the session page's "Run the gate" form starts with: the first run of spans none of
 * which is reclaimed yet, so that the form as it opens asks the gate something it can answer (a
 * range holding a reclaimed span is refused whole).
 */
import { rawQuery } from "@/lib/db/client";

const RECLAIMED = "('RECLAIMED', 'RECLAIMED_HONEST')";

/** The first run of unreclaimed seqs of the session, or null when every span with a seq is reclaimed. */
export async function unreclaimedRange(sessionId: string): Promise<{ fromSeq: number; toSeq: number } | null> {
  // Two probes of the (session_id, seq) key in order: the first unreclaimed seq, then the first
  // reclaimed one after it.
  const [first] = await rawQuery<{ seq: number }>(
    `select seq from span
      where session_id = $1::uuid and seq is not null and transcript_state::text not in ${RECLAIMED}
      order by seq limit 1`,
    [sessionId],
  );
  if (!first) return null;
  const [next] = await rawQuery<{ seq: number | null; last: number | null }>(
    `select (select seq from span
              where session_id = $1::uuid and seq > $2::int and transcript_state::text in ${RECLAIMED}
              order by seq limit 1) as seq,
            (select max(seq) from span where session_id = $1::uuid) as last`,
    [sessionId, first.seq],
  );
  return { fromSeq: first.seq, toSeq: next?.seq != null ? next.seq - 1 : (next?.last ?? first.seq) };
}
