import { env } from "@/lib/core/env";
import type pg from "pg";
import { db, rawTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { type TranscriptBytes, TranscriptImportError } from "@/lib/importers";
import type { ImportFormat, ImportIssue, ImportRecords } from "@/lib/importers/shared/types";
import type { EvidentialClass } from "@/lib/evidence/types";
import { endsBeforeSession } from "@/lib/importers/shared/partial-end";
import { appendSpans, ingestPolicy, rowsAhead, supersedeEndMarks, upsertSession } from "@/lib/server/ingest";
import { type AsyncImportWindows, importWindowsOffThread } from "./parse-off-thread";
import { recordCompactions } from "./record-compactions";
import { type Batch, type Target, WindowBatches } from "./window-batches";

/**
 * Spans the importer hands over at a time (at least; a window closes where the transcript is
 * quiet): what memory holds of the file's output, whatever the file's size.
 */
export const WINDOW_SPANS = 2_000;

export interface ImportProgress {
  spansDone: number;
  /** An estimate until the end (spans so far, scaled by the share of the file read), then exact. */
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
  bytes: TranscriptBytes,
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
  const outcome: ImportOutcome = {
    format: options.format ?? "claude-code",
    sessions: [],
    spans: 0,
    classes: { NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 },
    wouldRefuse: 0,
    records: { read: 0, used: 0, ignored: 0, skipped: 0, ignoredByType: {} },
    issues: [],
    retention: { ttlFrom, expiringSoon: 0, withinMinutes: sweepMinutes() },
  };
  // A file's sessions and spans land in one transaction: a failure (or the process killed) leaves
  // nothing of them behind. The importer hands its output over in windows, each written before the
  // next is read, so memory holds a window of spans, not the file's. The compactions are recorded
  // after the transaction commits, through the gate's own transactions; should one fail, what this
  // import wrote is deleted again.
  const targets = new Map<string, Target>();
  const policy = await ingestPolicy(projectId);
  const end = await rawTransaction(async (client) => {
    const reading = new WindowBatches(windowsOf(bytes, options.format), targets, outcome.issues, projectId, client);
    try {
      const analyse = (batch: Batch) => rowsAhead(batch.target.session, batch.spans, policy, { ttlFrom, now });
      // Each batch is analysed (and the next window read) while Postgres writes the one before it.
      let current = await reading.next();
      let ahead = current.done ? undefined : analyse(current.value);
      while (!current.done) {
        const { target, spans } = current.value;
        const writing = appendSpans(projectId, target.id, spans, { ttlFrom, now, client, ahead: await ahead! });
        writing.catch(() => {}); // awaited below; a failure is not left unhandled while the next batch is read
        let next: Awaited<ReturnType<WindowBatches["next"]>>;
        try {
          next = await reading.next();
        } catch (error) {
          await writing; // a failed write is what broke the transaction: report it, not what failed after
          throw error;
        }
        ahead = next.done ? undefined : analyse(next.value);
        ahead?.catch(() => {}); // dropped with the import should the write fail
        for (const span of await writing) {
          outcome.classes[span.class] += 1;
          if (!target.created && span.created) target.createdSpans.push(span.id);
        }
        target.spans += spans.length;
        for (const span of spans) target.lastLine = Math.max(target.lastLine ?? 0, span.sourceLine);
        outcome.spans += spans.length;
        options.onProgress?.({
          spansDone: outcome.spans,
          spansTotal: Math.max(outcome.spans, reading.spansTotal(bytes.byteLength)),
        });
        current = next;
      }
      // What is known only at the end of the file: titles, the sessions' start, their skipped records.
      for (const header of current.value.sessions) {
        const target = targets.get(header.externalId)!;
        const { title, cwd, startedAt } = header;
        await upsertSession(projectId, { externalId: header.externalId, runtime: header.runtime, title, cwd, startedAt }, client);
        // This read reached past an earlier read's end mark: that file went on (./partial-end in ingest).
        const readThrough = Math.max(
          current.value.records.read,
          target.lastLine ?? 0,
          ...header.skipped.filter((k) => !endsBeforeSession(k)).map((k) => k.line),
        );
        await supersedeEndMarks(target.id, readThrough, client);
        await recordSkipped(client, target.id, header.skipped);
      }
      return current.value;
    } finally {
      await reading.close();
    }
  });
  outcome.format = end.format;
  outcome.records = end.records;
  outcome.issues = [...end.issues, ...outcome.issues].sort((a, b) => a.line - b.line);
  const written = end.sessions.map((header) => ({ header, target: targets.get(header.externalId)! }));
  try {
    for (const { header, target } of written) {
      outcome.wouldRefuse += await recordCompactions(projectId, target.id, target.compactions, options.requester);
      outcome.sessions.push({
        id: target.id,
        externalId: header.externalId,
        spans: target.spans,
        created: target.created,
        skippedRecords: header.skipped.length,
      });
    }
  } catch (error) {
    await undoImport([...targets.values()]).catch((undo) => console.error("Could not undo a failed import", undo));
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
async function recordSkipped(client: pg.PoolClient, sessionId: string, skipped: readonly ImportIssue[]): Promise<void> {
  if (skipped.length === 0) return;
  // One row a line: a record can fail more than one way (a result whose call and parent are both
  // missing), and every reason is kept.
  const byLine = new Map<number, string[]>();
  for (const s of skipped) byLine.set(s.line, [...(byLine.get(s.line) ?? []), s.message]);
  await client.query(
    `insert into skipped_record (session_id, line, reason)
     select $1::uuid, line, reason from unnest($2::int[], $3::text[]) as r(line, reason)
     on conflict do nothing`,
    [sessionId, [...byLine.keys()], [...byLine.values()].map((reasons) => reasons.join("; "))],
  );
}

/**
 * Deletes what a failed import wrote, in one transaction: the sessions it created (their spans,
 * originals and atoms with them) and the spans it added to sessions that were there before.
 */
async function undoImport(written: Array<{ id: string; created: boolean; createdSpans: string[] }>): Promise<void> {
  const sessions = written.filter((w) => w.created).map((w) => w.id);
  const spans = written.filter((w) => !w.created).flatMap((w) => w.createdSpans.map((span) => [w.id, span]));
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

/** The importer's windows (read off the event loop), its errors as the API's. */
async function* windowsOf(bytes: TranscriptBytes, format: ImportFormat | undefined): AsyncImportWindows {
  try {
    return yield* importWindowsOffThread(bytes, format, WINDOW_SPANS);
  } catch (error) {
    if (!(error instanceof TranscriptImportError)) throw error;
    if (error.code === "UNKNOWN_TRANSCRIPT_FORMAT") {
      throw new AppError("VALIDATION_FAILED", error.message, { fields: [{ path: "format", message: "not a known format" }] });
    }
    throw new AppError(error.code, error.message, { fields: [{ path: "format", message: error.message }] });
  }
}
