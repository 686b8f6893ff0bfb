import { sha256Hex } from "@/lib/core/hash";
import { db } from "@/lib/db/client";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { loadPolicy } from "@/lib/server/retention";
import { type AppendOptions, type RowsAhead, receiptOf } from "./append";
import { type BatchSession, batchRows } from "./batch-rows";
import type { HashedSpan, IngestedSpan, SpanSubmission } from "./span-submission";
import { type BatchRows, type CopyText, copyTexts } from "./bulk-insert";

/** The retention policy a project's batches are analysed with. */
export function ingestPolicy(projectId: string): Promise<RetentionPolicy> {
  return loadPolicy(db(), projectId);
}

/**
 * Turns of the event loop between slices this long, and before the first: a write or read in
 * flight keeps moving while a batch is analysed (each turn lets a round trip that has come back
 * send the next statement).
 */
const SLICE_MS = 1;

interface Built {
  rows: BatchRows;
  inserted: IngestedSpan;
  copy: CopyText[];
}

/**
 * The rows appendSpans would build for a batch (analysis, atoms, TTLs) and their COPY text, built
 * ahead of its transaction for each distinct seq (the last span of a seq is the one written, as
 * appendSpans keeps it), in slices that give way to I/O. Pass them as `ahead` with the same batch
 * and options: the transaction takes the rows of the spans not stored yet, or builds them afresh if
 * the session's working directory is no longer `session.cwd`.
 */
export async function rowsAhead(
  session: BatchSession,
  spans: SpanSubmission[],
  policy: RetentionPolicy,
  options: AppendOptions = {},
): Promise<RowsAhead> {
  const receivedAt = receiptOf(options);
  const bySeq = new Map<number, SpanSubmission>();
  for (const span of spans) bySeq.set(span.seq, span);
  const built = new Map<number, Built>();
  await new Promise<void>((resolve) => setImmediate(resolve));
  let slice = performance.now();
  for (const [seq, span] of bySeq) {
    const { rows, inserted } = batchRows(session, policy, [{ span, sha256: sha256Hex(span.body) }], receivedAt);
    built.set(seq, { rows, inserted: inserted[0]!, copy: copyTexts(rows) });
    if (performance.now() - slice > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return { cwd: session.cwd, policy, rowsFor: (fresh) => assemble(built, fresh) };
}

/** The built rows of `fresh` (distinct seqs of the batch) and their COPY text, in its order. */
function assemble(built: Map<number, Built>, fresh: HashedSpan[]): ReturnType<RowsAhead["rowsFor"]> {
  const rows: BatchRows = { spans: [], originals: [], atoms: [] };
  const inserted: IngestedSpan[] = [];
  const texts: string[][] = [];
  let copy: CopyText[] = [];
  for (const { span } of fresh) {
    const one = built.get(span.seq)!;
    rows.spans.push(...one.rows.spans);
    rows.originals.push(...one.rows.originals);
    for (const atom of one.rows.atoms) rows.atoms.push(atom);
    inserted.push(one.inserted);
    copy = one.copy;
    one.copy.forEach((table, t) => {
      (texts[t] ??= []).push(table.text);
    });
  }
  return { rows, inserted, copy: copy.map((table, t) => ({ ...table, text: texts[t]!.join("") })) };
}
