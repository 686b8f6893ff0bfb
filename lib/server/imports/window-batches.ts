import type pg from "pg";
import type { ImportEnd, ImportIssue, ImportWindow, ImportedSpan, SessionPart } from "@/lib/importers/shared/types";
import { type BatchSession, unstorableFields, upsertSession } from "@/lib/server/ingest";
import type { AsyncImportWindows } from "./parse-off-thread";
import type { KeptCompaction } from "./record-compactions";

/** Spans per ingest batch: big enough to be fast, small enough to report progress. */
const CHUNK = 500;

/** A session of the file as the import writes it: what stays of it once its windows are written. */
export interface Target {
  id: string;
  created: boolean;
  /** What ingest analyses its spans against. */
  session: BatchSession;
  spans: number;
  /** Spans this import added to a session that was there before (to undo a failed import). */
  createdSpans: string[];
  /** The furthest line (or record) of the file a span of the session came from, once written. */
  lastLine?: number;
  compactions: KeptCompaction[];
}

export interface Batch {
  target: Target;
  spans: ImportedSpan[];
}

/**
 * The importer's windows as ingest batches, read one window at a time: a session is upserted when
 * it first appears (what is known of it only at the end of the file is written then), and of a
 * window's spans only the compactions' summary texts stay once its batches are taken.
 */
export class WindowBatches {
  private readonly queue: Batch[] = [];
  private bytesRead = 0;
  private spansSeen = 0;

  constructor(
    private readonly windows: AsyncImportWindows,
    private readonly targets: Map<string, Target>,
    /** Where the spans whose fields could not be stored are reported. */
    private readonly issues: ImportIssue[],
    private readonly projectId: string,
    private readonly client: pg.PoolClient,
  ) {}

  async next(): Promise<IteratorResult<Batch, ImportEnd>> {
    while (this.queue.length === 0) {
      const step = await this.windows.next();
      if (step.done) return step;
      await this.take(step.value);
    }
    return { done: false, value: this.queue.shift()! };
  }

  /**
   * Ends the reading where it stands (a no-op once the file is read): an import that fails midway
   * closes the file the importer was reading from, and stops its parser thread.
   */
  async close(): Promise<void> {
    await this.windows.return(undefined as never);
  }

  /** The file's spans, estimated from those read so far and the share of the file they came from. */
  spansTotal(fileBytes: number): number {
    return this.bytesRead === 0 ? this.spansSeen : Math.round((this.spansSeen * fileBytes) / this.bytesRead);
  }

  private async take(window: ImportWindow): Promise<void> {
    for (const part of window.sessions) {
      const target = await this.target(part);
      keepStorable(part.spans, this.issues);
      const first = part.spans[0]?.seq ?? 0;
      for (const compaction of part.compactions) {
        const summary = part.spans[compaction.summarySeq - first]!;
        target.compactions.push({ ...compaction, summaryText: new TextDecoder().decode(summary.body) });
      }
      for (let n = 0; n < part.spans.length; n += CHUNK) this.queue.push({ target, spans: part.spans.slice(n, n + CHUNK) });
      this.spansSeen += part.spans.length;
    }
    this.bytesRead = window.bytesRead ?? this.bytesRead;
  }

  private async target(part: SessionPart): Promise<Target> {
    const known = this.targets.get(part.externalId);
    if (known) {
      // A working directory named only after the session's first window serves the spans after it.
      if (known.session.cwd === null && part.cwd !== undefined) known.session = { ...known.session, cwd: part.cwd };
      return known;
    }
    const { session, created } = await upsertSession(
      this.projectId,
      { externalId: part.externalId, runtime: part.runtime, cwd: part.cwd },
      this.client,
    );
    const target: Target = { id: session.id, created, session, spans: 0, createdSpans: [], compactions: [] };
    this.targets.set(part.externalId, target);
    return target;
  }
}

/**
 * A span whose structured fields hold a NUL character (which Postgres text cannot store) keeps its
 * verbatim bytes, where the NUL stays, and loses those fields, with the line reported.
 */
function keepStorable(spans: ImportedSpan[], issues: ImportIssue[]) {
  for (const span of spans) {
    const fields = unstorableFields(span);
    if (fields.length === 0) continue;
    for (const field of fields) delete span[field];
    issues.push({
      line: span.sourceLine,
      message: `${fields.join(", ")} held a NUL character: kept the span's bytes without ${fields.length > 1 ? "them" : "it"}`,
    });
  }
}
