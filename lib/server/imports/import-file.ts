import { env } from "@/lib/core/env";
import type pg from "pg";
import { db, rawTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { importTranscript, TranscriptImportError } from "@/lib/importers";
import type { ImportFormat, ImportIssue, ImportRecords, ImportResult, ImportedSession } from "@/lib/importers/types";
import type { EvidentialClass } from "@/lib/evidence/types";
import { appendSpans, type IngestedSpan, ingestPolicy, rowsAhead, unstorableFields, upsertSession } from "@/lib/server/ingest";
import { reclaim } from "@/lib/server/gate";

/** Spans per ingest transaction: big enough to be fast, small enough to report progress. */
const CHUNK = 500;

export interface ImportProgress {
  spansDone: number;
  spansTotal: number;
}

export interface ImportOutcome {
  format: ImportFormat;
  sessions: Array<{ id: string; externalId: string; spans: number; created: boolean; skippedRecords: number }>;
  spans: number;
  classes: Record<EvidentialClass, number>;
  /** Compactions in the file whose replaced spans the gate would have refused to let go. */
  wouldRefuse: number;
  /** Every record of the file: read == used + ignored + skipped. */
  records: ImportRecords;
  issues: ImportIssue[];
  retention: ImportRetention;
}

/** Where the imported originals' TTLs count from, and what the next sweep would delete of them. */
export interface ImportRetention {
  ttlFrom: "received" | "occurred";
  /** Originals of this import whose TTL ends within `withinMinutes` (the sweeper's interval). */
  expiringSoon: number;
  withinMinutes: number;
  /** Set when expiringSoon > 0: what will happen and what to do about it. */
  warning?: string;
}

/** How often servers sweep (lib/server/background): what "the next sweep" means here; 60 when the schedule is off. */
const sweepMinutes = () => env().CUSTODIAN_SWEEP_INTERVAL_MINUTES || 60;

/**
 * Imports a transcript file through the same ingest path runtimes use, then records the
 * compactions it contains as ones the runtime did on its own (observed). Importing the same file
 * again changes nothing: spans are idempotent and a compaction already linked is skipped.
 */
export async function importTranscriptFile(
  projectId: string,
  bytes: Uint8Array,
  options: {
    format?: ImportFormat;
    requester: string;
    onProgress?: (p: ImportProgress) => void;
    /** TTLs count from receipt unless the import asks to count them from when each span occurred. */
    ttlFrom?: "received" | "occurred";
    now?: Date;
  },
): Promise<ImportOutcome> {
  const now = options.now ?? new Date();
  const ttlFrom = options.ttlFrom ?? "received";
  const parsed = parseTranscript(bytes, options.format);
  keepStorable(parsed);
  const spansTotal = parsed.sessions.reduce((n, s) => n + s.spans.length, 0);
  const outcome: ImportOutcome = {
    format: parsed.format,
    sessions: [],
    spans: 0,
    classes: { NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 },
    wouldRefuse: 0,
    records: parsed.records,
    issues: parsed.issues,
    retention: { ttlFrom, expiringSoon: 0, withinMinutes: sweepMinutes() },
  };
  // A file's sessions and spans land in one transaction: a failure (or the process killed) leaves
  // nothing of them behind. The compactions are recorded after it commits, through the gate's
  // own transactions; should one fail, what this import wrote is deleted again.
  const written: Array<{
    imported: ImportedSession;
    id: string;
    created: boolean;
    ingested: IngestedSpan[];
    session: { id: string; cwd: string | null };
  }> = [];
  const policy = await ingestPolicy(projectId);
  await rawTransaction(async (client) => {
    // The sessions first, then one pipeline over every session's batches: each batch is analysed
    // while Postgres writes the one before it, across sessions too (a Claude Code file holds many
    // sessions shorter than a batch, which a pipeline per session would analyse and write in turn).
    for (const imported of parsed.sessions) {
      const { session, created } = await upsertSession(
        projectId,
        {
          externalId: imported.externalId,
          runtime: imported.runtime,
          title: imported.title,
          cwd: imported.cwd,
          startedAt: imported.startedAt,
        },
        client,
      );
      await recordSkipped(client, session.id, imported);
      written.push({ imported, id: session.id, created, ingested: [], session });
    }
    const batches = written.flatMap((target) =>
      Array.from({ length: Math.ceil(target.imported.spans.length / CHUNK) }, (_, n) => ({
        target,
        spans: target.imported.spans.slice(n * CHUNK, (n + 1) * CHUNK),
      })),
    );
    const analyse = (b: number) => rowsAhead(batches[b]!.target.session, batches[b]!.spans, policy, { ttlFrom, now });
    let next = batches.length > 0 ? analyse(0) : undefined;
    for (let b = 0; next; b++) {
      const { target, spans } = batches[b]!;
      const ahead = await next;
      const writing = appendSpans(projectId, target.id, spans, { ttlFrom, now, client, ahead });
      next = b + 1 < batches.length ? analyse(b + 1) : undefined;
      next?.catch(() => {}); // dropped with the import should the write fail
      for (const span of await writing) target.ingested.push(span);
      outcome.spans += spans.length;
      options.onProgress?.({ spansDone: outcome.spans, spansTotal });
    }
  });
  try {
    for (const { imported, id, created, ingested } of written) {
      for (const span of ingested) outcome.classes[span.class] += 1;
      outcome.wouldRefuse += await recordCompactions(projectId, id, imported, ingested, options.requester);
      outcome.sessions.push({
        id,
        externalId: imported.externalId,
        spans: ingested.length,
        created,
        skippedRecords: imported.skipped.length,
      });
    }
  } catch (error) {
    await undoImport(written).catch((undo) => console.error("Could not undo a failed import", undo));
    throw error;
  }
  outcome.retention = await retentionOf(
    outcome.sessions.map((s) => s.id),
    ttlFrom,
    now,
  );
  return outcome;
}

/**
 * The records skipped for a session are stored with it: they make it incomplete, so no evidence
 * question answers NO over it. Importing the same file again records nothing twice.
 */
async function recordSkipped(client: pg.PoolClient, sessionId: string, imported: ImportedSession): Promise<void> {
  if (imported.skipped.length === 0) return;
  await client.query(
    `insert into skipped_record (session_id, line, reason)
     select $1::uuid, line, reason from unnest($2::int[], $3::text[]) as r(line, reason)
     on conflict do nothing`,
    [sessionId, imported.skipped.map((s) => s.line), imported.skipped.map((s) => s.message)],
  );
}

/**
 * Deletes what a failed import wrote, in one transaction: the sessions it created (their spans,
 * originals and atoms with them) and the spans it added to sessions that were there before.
 */
async function undoImport(written: Array<{ id: string; created: boolean; ingested: IngestedSpan[] }>): Promise<void> {
  const sessions = written.filter((w) => w.created).map((w) => w.id);
  const spans = written.filter((w) => !w.created).flatMap((w) => w.ingested.filter((s) => s.created).map((s) => [w.id, s.id]));
  await rawTransaction(async (client) => {
    if (spans.length > 0)
      await client.query("delete from span where (session_id, id) in (select * from unnest($1::uuid[], $2::uuid[]))", [
        spans.map(([session]) => session),
        spans.map(([, span]) => span),
      ]);
    if (sessions.length > 0) await client.query("delete from session where id = any($1::uuid[])", [sessions]);
  });
}

/** How many originals of the imported sessions the sweeper would delete within its next interval. */
async function retentionOf(sessionIds: string[], ttlFrom: "received" | "occurred", now: Date): Promise<ImportRetention> {
  const horizon = new Date(now.getTime() + sweepMinutes() * 60_000);
  const expiringSoon =
    sessionIds.length === 0
      ? 0
      : await db().spanOriginal.count({
          where: { sessionId: { in: sessionIds }, pinned: false, deletedAt: null, expiresAt: { lte: horizon } },
        });
  const retention: ImportRetention = { ttlFrom, expiringSoon, withinMinutes: sweepMinutes() };
  if (expiringSoon > 0) {
    retention.warning =
      `${expiringSoon} imported original${expiringSoon === 1 ? "" : "s"} expire within ${sweepMinutes()} minutes: ` +
      "the next sweep deletes them unless they are pinned. Import with TTLs counted from receipt to keep them.";
  }
  return retention;
}

/**
 * A span whose structured fields hold a NUL character (which Postgres text cannot store) keeps its
 * verbatim bytes, where the NUL stays, and loses those fields, with the line reported.
 */
function keepStorable(parsed: ImportResult) {
  for (const session of parsed.sessions) {
    for (const span of session.spans) {
      const fields = unstorableFields(span);
      if (fields.length === 0) continue;
      for (const field of fields) delete span[field];
      parsed.issues.push({
        line: span.sourceLine,
        message: `${fields.join(", ")} held a NUL character: kept the span's bytes without ${fields.length > 1 ? "them" : "it"}`,
      });
    }
  }
  parsed.issues.sort((a, b) => a.line - b.line);
}

function parseTranscript(bytes: Uint8Array, format: ImportFormat | undefined) {
  try {
    return importTranscript(bytes, format);
  } catch (error) {
    if (!(error instanceof TranscriptImportError)) throw error;
    if (error.code === "UNKNOWN_TRANSCRIPT_FORMAT") {
      throw new AppError("VALIDATION_FAILED", error.message, { fields: [{ path: "format", message: "not a known format" }] });
    }
    throw new AppError(error.code, error.message, { fields: [{ path: "format", message: error.message }] });
  }
}

async function recordCompactions(
  projectId: string,
  sessionId: string,
  imported: ImportedSession,
  ingested: IngestedSpan[],
  requester: string,
): Promise<number> {
  const bySeq = new Map(ingested.map((s) => [s.seq, s]));
  const bodyBySeq = new Map(imported.spans.map((s) => [s.seq, s.body]));
  let refused = 0;
  for (const compaction of imported.compactions) {
    const summary = bySeq.get(compaction.summarySeq);
    const replaced = compaction.replacedSeqs.map((seq) => bySeq.get(seq)).filter((s): s is IngestedSpan => s !== undefined);
    if (!summary || replaced.length === 0) continue; // Nothing in the file to link: the summary stays without provenance.
    if ((await db().summaryLink.count({ where: { sessionId, summarySpanId: summary.id } })) > 0) continue;
    const text = new TextDecoder().decode(bodyBySeq.get(compaction.summarySeq));
    // The replaced spans are in the file, so Custodian holds them: the pointers resolve.
    const pointers = replaced.map((s) => ({
      spanId: s.id,
      byteStart: 0,
      byteEnd: bodyBySeq.get(s.seq)?.byteLength ?? 0,
      sha256: s.sha256,
    }));
    const result = await reclaim({
      projectId,
      sessionId,
      selection: { spanIds: replaced.map((s) => s.id) },
      summary: { text, pointers },
      dryRun: false,
      requester,
      at: compaction.occurredAt,
      observed: true,
      summarySpanId: summary.id,
    });
    refused += result.decisions.filter((d) => d.verdict === "REFUSE").length;
  }
  return refused;
}
