/**
 * What a compaction hook sends in one round trip: the spans of the transcript it has not sent
 * before (the hook parses the transcript and keeps the cursor), the records it skipped, the
 * compactions the transcript records, and what it wants back: the gate's view of what a
 * compaction would take now, and the evidence ledger for the agent's new context.
 */
import { db, rawQuery } from "@/lib/db/client";
import { mayHoldNonDurableVerbatim, statusConditions } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import type { ImportedCompaction } from "@/lib/importers/shared/types";
import { endsBeforeSession } from "@/lib/importers/shared/partial-end";
import { appendSpans, rowsAhead, supersedeEndMarks, upsertSession } from "@/lib/server/ingest";
import { reclaim } from "@/lib/server/gate";
import { linkCompactions, type StoredSpanRef } from "./compactions";
import { type RuntimeSummaryInput, type RuntimeSummaryResult, recordRuntimeSummary } from "./runtime-summary";
import { type Ledger, ledgerText, sideEffectLedger } from "./ledger";

type Submission = Parameters<typeof appendSpans>[2][number];
type SessionInput = Parameters<typeof upsertSession>[1];

export interface HookSyncInput {
  session: SessionInput;
  spans: Submission[];
  skipped: Array<{ line: number; reason: string }>;
  /** Lines of the transcript the hook has read: an end mark before them no longer stands. */
  linesRead?: number;
  compactions: ImportedCompaction[];
  /** Ask the gate about every verbatim span a compaction could take now. */
  gate: boolean;
  /** Return the ledger, with at most this many entries. */
  ledgerLimit?: number;
  /** The server's address as the hook knows it, for the ledger's fetch hint. */
  serverUrl?: string;
  /** The runtime's own compaction summary (a post-compaction hook): stored verbatim and linked. */
  runtimeSummary?: RuntimeSummaryInput;
}

export interface HookRefusal {
  spanId: string;
  seq: number | null;
  cell: { class: string; provenance: string };
  reason: string;
}

export interface HookSyncResult {
  sessionId: string;
  /** The first seq the hook has not sent: where its cursor goes. */
  nextSeq: number;
  imported: number;
  linkedCompactions: number;
  gate?: { checked: number; refusedCount: number; refused: HookRefusal[] };
  ledger?: Ledger;
  /** The ledger as the lines the agent reads. */
  ledgerText?: string;
  /** The runtime's summary as stored; null when it had nothing left to replace. */
  runtimeSummary?: RuntimeSummaryResult | null;
}

const CHUNK = 500;
const REFUSALS_LISTED = 20;

export async function syncHookTranscript(
  projectId: string,
  input: HookSyncInput,
  requester: string,
  now = new Date(),
): Promise<HookSyncResult> {
  // The policy is read once, beside the session's upsert, for the spans' TTLs and the gate.
  const [{ session }, policy] = await Promise.all([upsertSession(projectId, input.session), loadPolicy(db(), projectId)]);
  // A live transcript ends early at every sync: what this one read past supersedes the last end mark.
  const readThrough = Math.max(
    input.linesRead ?? 0,
    ...input.spans.map((s) => s.sourceLine ?? 0),
    ...input.skipped.filter((k) => !endsBeforeSession({ message: k.reason })).map((k) => k.line),
  );
  // Each chunk is analysed while the statements before its writes are on their way: the first
  // while end marks and skipped records are written, the next while this one is written.
  const chunks: Submission[][] = [];
  for (let i = 0; i < input.spans.length; i += CHUNK) chunks.push(input.spans.slice(i, i + CHUNK));
  const analyse = (chunk: Submission[] | undefined) => {
    const rows = chunk ? rowsAhead(session, chunk, policy, { now }) : undefined;
    rows?.catch(() => {}); // a failure is met where appendSpans awaits it
    return rows;
  };
  let ahead = analyse(chunks[0]);
  await supersedeEndMarks(session.id, readThrough);
  if (input.skipped.length > 0) {
    await db().skippedRecord.createMany({
      data: input.skipped.map((s) => ({ sessionId: session.id, line: s.line, reason: s.reason })),
      skipDuplicates: true,
    });
  }
  let imported = 0;
  for (let i = 0; i < chunks.length; i++) {
    const written = appendSpans(projectId, session.id, chunks[i]!, { now, policy, ...(ahead ? { ahead } : {}) });
    ahead = analyse(chunks[i + 1]);
    imported += (await written).filter((s) => s.created).length;
  }
  // The runtime's own summary first: the transcript's record of the same compaction then finds its
  // spans taken and is kept as a span, not linked a second time.
  const runtimeSummary = input.runtimeSummary
    ? await recordRuntimeSummary(projectId, session.id, input.runtimeSummary, requester)
    : undefined;
  const linkedCompactions =
    input.compactions.length > 0 ? await linkHookCompactions(projectId, session.id, input.compactions, requester) : 0;
  // Both read what the writes above committed, neither needs the other: side by side.
  const [nextSeq, gate] = await Promise.all([
    nextSeqOf(session.id),
    input.gate ? gateOnVerbatim(projectId, session.id, requester, now, policy.evidenceHorizonDays) : undefined,
  ]);
  const result: HookSyncResult = { sessionId: session.id, nextSeq, imported, linkedCompactions };
  if (runtimeSummary !== undefined) result.runtimeSummary = runtimeSummary;
  if (gate) result.gate = gate;
  if (input.ledgerLimit) {
    result.ledger = await sideEffectLedger(projectId, session.id, input.ledgerLimit);
    result.ledgerText = ledgerText(result.ledger, input.serverUrl);
  }
  return result;
}

/** The seq after the session's highest (its span counter keeps the highest, in step with every write). */
async function nextSeqOf(sessionId: string): Promise<number> {
  const [row] = await rawQuery<{ seq_max: number | null }>("select seq_max from session where id = $1", [sessionId]);
  return (row?.seq_max ?? -1) + 1;
}

/** The compactions' summaries and replaced spans by seq, as stored, then linked as observed. */
async function linkHookCompactions(projectId: string, sessionId: string, compactions: ImportedCompaction[], requester: string) {
  const seqs = [...new Set(compactions.flatMap((c) => [c.summarySeq, ...c.replacedSeqs]))];
  const rows = await db().span.findMany({
    where: { sessionId, seq: { in: seqs } },
    select: { id: true, seq: true, sha256: true, byteLength: true, original: { select: { bytes: true } } },
  });
  const refs = new Map<number, StoredSpanRef>();
  const bodies = new Map<number, Uint8Array>();
  for (const row of rows) {
    refs.set(row.seq!, { id: row.id, sha256: row.sha256 });
    bodies.set(row.seq!, row.original?.bytes ? new Uint8Array(row.original.bytes) : new Uint8Array(row.byteLength));
  }
  return linkCompactions(projectId, sessionId, compactions, refs, bodies, requester);
}

/** Spans the gate is asked about at most, per hook: the rest are counted, not listed. */
const GATE_CANDIDATES = 1000;

/**
 * The gate's verdicts on the session's verbatim spans a compaction may take. A span whose original
 * is held durably (until its horizon, or pinned) is reclaimable in every row of the gate's table,
 * so only the others (found in SQL from the original's facts each span carries) are put to the
 * gate itself, as a dry run with a pointer each (the compaction's summary will be linked to what
 * Custodian holds): a refusal means Custodian cannot hold that span durably.
 */
async function gateOnVerbatim(projectId: string, sessionId: string, requester: string, now: Date, evidenceHorizonDays: number) {
  const horizonDays = Math.trunc(evidenceHorizonDays);
  if (!(await mayHoldNonDurableVerbatim(sessionId, now, horizonDays))) return { checked: 0, refusedCount: 0, refused: [] };
  const { durable } = statusConditions("s", { now, horizonDays });
  const rows = await db().$queryRaw<Array<{ id: string; seq: number; sha256: string; byte_length: number; total: bigint }>>`
    select s.id, s.seq, s.sha256, s.byte_length, count(*) over () as total
    from span s
    where s.session_id = ${sessionId}::uuid and s.transcript_state = 'VERBATIM' and s.class <> 'NARRATIVE'
      and s.seq is not null and not ${durable}
    order by s.seq
    limit ${GATE_CANDIDATES}`;
  if (rows.length === 0) return { checked: 0, refusedCount: 0, refused: [] };
  const outcome = await reclaim({
    projectId,
    sessionId,
    selection: { spanIds: rows.map((r) => r.id) },
    summary: { text: "", pointers: rows.map((r) => ({ spanId: r.id, byteStart: 0, byteEnd: r.byte_length, sha256: r.sha256 })) },
    dryRun: true,
    requester,
  });
  const seqOf = new Map(rows.map((r) => [r.id, r.seq]));
  const refused = outcome.decisions.filter((d) => d.verdict === "REFUSE");
  // Past the first GATE_CANDIDATES non-durable spans, the rest are counted with the refused when
  // any were refused (the same facts under the same policy), not put to the gate one by one.
  const beyond = Number(rows[0]!.total) - rows.length;
  return {
    checked: rows.length,
    refusedCount: refused.length + (refused.length > 0 ? beyond : 0),
    refused: refused
      .slice(0, REFUSALS_LISTED)
      .map((d) => ({ spanId: d.spanId, seq: seqOf.get(d.spanId) ?? null, cell: d.cell, reason: d.reason })),
  };
}
