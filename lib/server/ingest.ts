import { randomUUID } from "node:crypto";
import { AppError, type FieldError } from "@/lib/api/errors";
import { db, type DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { expiresAtFor } from "@/lib/evidence/policy";
import type { EvidentialClass, RetentionPolicy, SpanKind } from "@/lib/evidence/types";
import { atomRowsFor, insertAtomRows, insertOriginalRows, insertSpanRows, type AtomRow, type OriginalRow, type SpanRow } from "./bulk-insert";
import { sha256Hex } from "./hash";
import { loadPolicy } from "./policy";

export interface SessionInput {
  externalId: string;
  runtime: string;
  title?: string | null;
  cwd?: string | null;
  startedAt?: Date | null;
}

export interface SpanSubmission {
  seq: number;
  kind: SpanKind;
  role?: string | null;
  toolName?: string | null;
  toolInput?: unknown;
  exitCode?: number | null;
  occurredAt: Date;
  body: Uint8Array;
  /** Where a tool call ran, when it differs from the session's working directory. */
  cwd?: string | null;
  toolAnnotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface IngestedSpan {
  id: string;
  seq: number;
  class: EvidentialClass;
  atomCount: number;
  sha256: string;
  /** False when this exact span was already stored: resubmission is a no-op. */
  created: boolean;
}

/** Creates the session for a runtime's external id, or updates what the runtime now says about it. */
export async function upsertSession(projectId: string, input: SessionInput) {
  const existing = await db().session.findUnique({
    where: { projectId_externalId: { projectId, externalId: input.externalId } },
  });
  const fields = {
    runtime: input.runtime,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
    ...(input.startedAt !== undefined ? { startedAt: input.startedAt } : {}),
  };
  const session = await db().session.upsert({
    where: { projectId_externalId: { projectId, externalId: input.externalId } },
    create: { id: randomUUID(), projectId, externalId: input.externalId, ...fields },
    update: fields,
  });
  return { session, created: existing === null };
}

/**
 * Appends a batch of spans to a session in one transaction: all of it lands or none of it does.
 * Resubmitting a stored span (same seq, same bytes) returns its stored result; the same seq with
 * other bytes is a CONFLICT that changes nothing.
 */
export async function appendSpans(projectId: string, sessionId: string, spans: SpanSubmission[]): Promise<IngestedSpan[]> {
  try {
    return await appendSpansOnce(projectId, sessionId, spans);
  } catch (error) {
    // A concurrent submission of the same seq won the race: run again to answer as a resubmission.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return appendSpansOnce(projectId, sessionId, spans);
    }
    throw error;
  }
}

async function appendSpansOnce(projectId: string, sessionId: string, spans: SpanSubmission[]) {
  return db().$transaction(
    async (tx) => {
      const session = await tx.session.findFirst({ where: { id: sessionId, projectId } });
      if (!session) throw new AppError("NOT_FOUND", "Session not found");
      const policy = await loadPolicy(tx, projectId);
      const hashed = spans.map((span) => ({ span, sha256: sha256Hex(span.body) }));
      rejectInconsistentBatch(hashed);

      const stored = await tx.span.findMany({
        where: { sessionId, seq: { in: hashed.map((h) => h.span.seq) } },
        select: { id: true, seq: true, sha256: true, class: true, _count: { select: { atoms: true } } },
      });
      const storedBySeq = new Map(stored.map((row) => [row.seq, row]));
      const conflicts: FieldError[] = [];
      hashed.forEach(({ span, sha256 }, index) => {
        const row = storedBySeq.get(span.seq);
        if (row && row.sha256 !== sha256) {
          conflicts.push({ path: `spans.${index}.seq`, message: `seq ${span.seq} is already stored with other bytes (sha256 ${row.sha256})` });
        }
      });
      if (conflicts.length > 0) {
        throw new AppError("CONFLICT", "Some spans conflict with spans already stored; nothing was written", { fields: conflicts });
      }

      const results = new Map<number, IngestedSpan>();
      for (const row of stored) {
        results.set(row.seq!, { id: row.id, seq: row.seq!, class: row.class, atomCount: row._count.atoms, sha256: row.sha256, created: false });
      }
      const fresh = hashed.filter(({ span }) => !results.has(span.seq));
      const uniqueFresh = [...new Map(fresh.map((h) => [h.span.seq, h])).values()];
      const inserted = await insertSpans(tx, sessionId, session.cwd, policy, uniqueFresh);
      for (const result of inserted) results.set(result.seq, result);

      if (uniqueFresh.length > 0) {
        const latest = uniqueFresh.reduce((max, h) => (h.span.occurredAt > max ? h.span.occurredAt : max), session.lastActivityAt);
        await tx.session.update({ where: { id: sessionId }, data: { lastActivityAt: latest } });
      }
      return hashed.map(({ span }) => results.get(span.seq)!);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

function rejectInconsistentBatch(hashed: Array<{ span: SpanSubmission; sha256: string }>) {
  const firstBySeq = new Map<number, string>();
  const fields: FieldError[] = [];
  hashed.forEach(({ span, sha256 }, index) => {
    const seen = firstBySeq.get(span.seq);
    if (seen === undefined) firstBySeq.set(span.seq, sha256);
    else if (seen !== sha256) fields.push({ path: `spans.${index}.seq`, message: `seq ${span.seq} appears twice in this batch with different bytes` });
  });
  if (fields.length > 0) throw new AppError("VALIDATION_FAILED", "The batch contradicts itself", { fields });
}

async function insertSpans(
  tx: DbTx,
  sessionId: string,
  cwd: string | null,
  policy: RetentionPolicy,
  batch: Array<{ span: SpanSubmission; sha256: string }>,
): Promise<IngestedSpan[]> {
  const spanRows: SpanRow[] = [];
  const originalRows: OriginalRow[] = [];
  const atomRows: AtomRow[] = [];
  const results: IngestedSpan[] = [];

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
    const expiresAt = expiresAtFor(cls, span.occurredAt, policy);
    const atoms = atomRowsFor(sessionId, id, analysis.atoms);
    spanRows.push({
      sessionId,
      id,
      seq: span.seq,
      kind: span.kind,
      role: span.role ?? null,
      toolName: span.toolName ?? null,
      toolInput: span.toolInput === undefined ? null : JSON.stringify(span.toolInput),
      exitCode: span.exitCode ?? null,
      occurredAt: span.occurredAt,
      class: cls,
      classReasons: JSON.stringify(analysis.classification.reasons),
      byteLength: span.body.byteLength,
      sha256,
      original: { expiresAt },
    });
    originalRows.push({ sessionId, spanId: id, bytes: span.body, sha256, expiresAt });
    atomRows.push(...atoms);
    results.push({ id, seq: span.seq, class: cls, atomCount: atoms.length, sha256, created: true });
  }

  await insertSpanRows(tx, spanRows);
  await insertOriginalRows(tx, originalRows);
  await insertAtomRows(tx, atomRows);
  return results;
}
