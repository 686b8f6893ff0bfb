/**
 * The bytes of the citations an answer keeps, cut from their originals once it knows which it
 * keeps (the scope's first, up to its window). Candidates are judged from their facts: reading and
 * hashing the original of every span that cites cost most of a question's reads where thousands
 * cite and one page of them is shown. A citation carries only bytes that hash to its span's sha256
 * (docs/scale.md, "Originals are verified when written"): an original that no longer does gives
 * none, and is returned as damaged, to be recorded.
 *
 * The originals of citations past the window are not read: damage to them behind the database's
 * back is found by the sweeper's scrub, or by an answer that keeps them, as for stored verdicts.
 */
import { groupBy } from "@/lib/core/group";
import { cutCitedBytes, type Citation } from "@/lib/evidence/questions";
import { citedBytesQuery } from "./candidate-sql";
import { BATCH_SPANS, BATCHES_AT_ONCE } from "./candidate-spans";
import { keyOf } from "./scope";
import { sideBySide, type RunQuery } from "./stream";

interface OriginalRow {
  session_id: string;
  id: string;
  original_state: string;
  /** Null where the row holds no bytes. */
  intact: boolean | null;
  body: string | null;
}

/** The citations by the span they are cut from, and those spans once each: the keys citedBytesQuery reads. */
export function spansCited(citations: Citation[]) {
  const bySpan = groupBy(citations, (c) => keyOf(c.sessionId, c.spanId));
  return { bySpan, spans: [...bySpan.values()].map(([c]) => ({ session_id: c!.sessionId, id: c!.spanId })) };
}

/** Cuts the kept citations' bytes (in place); returns the spans whose held originals no longer hash right. */
export async function citedBytes(query: RunQuery, citations: Citation[]): Promise<Array<{ sessionId: string; spanId: string }>> {
  const { bySpan, spans } = spansCited(citations);
  const damaged: Array<{ sessionId: string; spanId: string }> = [];
  const read = async (chunk: typeof spans) => {
    for (const row of await query<OriginalRow>(citedBytesQuery(chunk))) {
      if (row.body !== null) {
        const body = new Uint8Array(Buffer.from(row.body, "base64"));
        for (const c of bySpan.get(keyOf(row.session_id, row.id))!) cutCitedBytes(c, body);
      }
      // Damage already recorded (the original is no longer HELD) needs no recording again: only
      // bytes changed behind the database's back since they were last verified do (a HELD row
      // without bytes among them).
      else if (row.intact !== true && row.original_state === "HELD") damaged.push({ sessionId: row.session_id, spanId: row.id });
    }
  };
  // A few statements side by side (an export keeps every citation).
  const chunks: Array<typeof spans> = [];
  for (let i = 0; i < spans.length; i += BATCH_SPANS) chunks.push(spans.slice(i, i + BATCH_SPANS));
  await sideBySide(chunks, BATCHES_AT_ONCE, read);
  return damaged;
}
