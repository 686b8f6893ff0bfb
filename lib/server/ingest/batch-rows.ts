import { randomUUID } from "node:crypto";
import { storableWords } from "@/lib/core/text";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { expiresAtFor } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { atomRowsFor, type AtomRow, type BatchRows, type OriginalRow, type SpanRow } from "./bulk-insert";
import type { HashedSpan, IngestedSpan } from "./span-submission";
import { encodeToolInput, storableTime } from "./storable";

/** The session a batch's spans are written to: its project (which atoms carry) and working directory. */
export interface BatchSession {
  id: string;
  projectId: string;
  cwd: string | null;
}

/**
 * The rows a batch of new spans writes: analysis, hashes, TTLs (counted from `receivedAt`, or from
 * each span's occurrence when it is null).
 */
export function batchRows(
  session: BatchSession,
  policy: RetentionPolicy,
  batch: HashedSpan[],
  receivedAt: Date | null,
): { rows: BatchRows; inserted: IngestedSpan[] } {
  const spanRows: SpanRow[] = [];
  const originalRows: OriginalRow[] = [];
  const atomRows: AtomRow[] = [];
  const results: IngestedSpan[] = [];

  const { id: sessionId, projectId, cwd } = session;
  for (const { span, sha256 } of batch) {
    const id = randomUUID();
    const analysis = analyzeSpan({
      body: span.body,
      kind: span.kind,
      role: span.role ?? undefined,
      toolName: span.toolName ?? undefined,
      toolInput: span.toolInput,
      exitCode: span.exitCode ?? undefined,
      cwd: span.cwd ?? cwd ?? undefined,
      toolAnnotations: span.toolAnnotations,
    });
    const cls = analysis.classification.class;
    const expiresAt = storableTime(expiresAtFor(cls, receivedAt ?? span.occurredAt, policy));
    const atoms = atomRowsFor({ projectId, sessionId }, id, analysis.atoms);
    spanRows.push({
      sessionId,
      id,
      seq: span.seq,
      kind: span.kind,
      role: span.role ?? null,
      toolName: span.toolName ?? null,
      toolInput: encodeToolInput(span.toolInput),
      exitCode: span.exitCode ?? null,
      outcome: span.outcome ?? null,
      agentId: span.agentId ?? null,
      agentType: span.agentType ?? null,
      sourceLine: span.sourceLine ?? null,
      occurredAt: span.occurredAt,
      class: cls,
      // A reason may quote the body, which can hold what jsonb cannot.
      classReasons: JSON.stringify(analysis.classification.reasons.map((r) => ({ ...r, detail: storableWords(r.detail) }))),
      byteLength: span.body.byteLength,
      sha256,
      original: { expiresAt },
    });
    originalRows.push({ sessionId, spanId: id, bytes: span.body, sha256, expiresAt });
    atomRows.push(...atoms);
    results.push({ id, seq: span.seq, class: cls, atomCount: atoms.length, sha256, created: true });
  }

  return { rows: { spans: spanRows, originals: originalRows, atoms: atomRows }, inserted: results };
}
