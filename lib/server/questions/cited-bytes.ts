/**
 * The bytes of the citations an answer keeps, cut from their originals once it knows which it
 * keeps (the scope's first, up to its window). Candidates are judged from their facts: reading and
 * hashing the original of every span that cites cost most of a question's reads where thousands
 * cite and one page of them is shown. A citation carries only bytes that hash to its span's sha256
 * (docs/scale.md, "Originals are verified when written"): an original that no longer does gives
 * none, and is returned as damaged, to be recorded.
 */
import { cutCitedBytes, type Citation } from "@/lib/evidence/questions";
import { citedBytesQuery } from "./candidate-sql";
import { keyOf } from "./scope";
import type { RunQuery } from "./stream";

/** Spans whose originals are read in one statement. */
const SPANS_AT_ONCE = 500;
/** Statements read side by side. */
const STATEMENTS_AT_ONCE = 3;

/** Cuts the kept citations' bytes (in place); returns the spans whose held originals no longer hash right. */
export async function citedBytes(query: RunQuery, citations: Citation[]): Promise<Array<{ sessionId: string; spanId: string }>> {
  const bySpan = new Map<string, Citation[]>();
  for (const c of citations) {
    const key = keyOf(c.sessionId, c.spanId);
    const list = bySpan.get(key);
    if (list) list.push(c);
    else bySpan.set(key, [c]);
  }
  const spans = [...bySpan.values()].map(([c]) => ({ session_id: c!.sessionId, id: c!.spanId }));
  const damaged: Array<{ sessionId: string; spanId: string }> = [];
  const read = async (chunk: typeof spans) => {
    const rows = await query<{ session_id: string; id: string; original_state: string; intact: boolean; body: string | null }>(
      citedBytesQuery(chunk),
    );
    for (const row of rows) {
      if (row.body !== null) {
        const body = new Uint8Array(Buffer.from(row.body, "base64"));
        for (const c of bySpan.get(keyOf(row.session_id, row.id))!) cutCitedBytes(c, body);
      }
      // Damage already recorded (the original is no longer HELD) needs no recording again: only
      // bytes changed behind the database's back since they were last verified do.
      else if (!row.intact && row.original_state === "HELD") damaged.push({ sessionId: row.session_id, spanId: row.id });
    }
  };
  // A few statements side by side, each on a connection of its own (an export keeps every citation).
  for (let i = 0; i < spans.length; i += SPANS_AT_ONCE * STATEMENTS_AT_ONCE) {
    const chunks: Array<typeof spans> = [];
    for (let j = i; j < Math.min(spans.length, i + SPANS_AT_ONCE * STATEMENTS_AT_ONCE); j += SPANS_AT_ONCE)
      chunks.push(spans.slice(j, j + SPANS_AT_ONCE));
    await Promise.all(chunks.map(read));
  }
  return damaged;
}
