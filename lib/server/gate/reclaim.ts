import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { transcriptStateFor } from "@/lib/evidence/transcript-state";
import type { Verdict } from "@/lib/evidence/types";
import { db, type DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { maxClassOf } from "@/lib/evidence/classes";
import { evaluateGate, type GateDecision, type GateSpan } from "@/lib/evidence/gate";
import { compareSummary, countByKind } from "@/lib/evidence/manifest";
import { expiresAtFor } from "@/lib/evidence/policy";
import type { Atom, CandidateSummary, EvidentialClass } from "@/lib/evidence/types";
import { atomRowsFor, atomRowsInsert, executeBulk } from "@/lib/server/ingest";
import { atomJson } from "./decision-json";
import { sha256Hex } from "@/lib/core/hash";
import { loadOriginalFacts } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { type Actor, writeAudit } from "@/lib/server/audit";

export type SpanSelection = { spanIds: string[] } | { fromSeq: number; toSeq: number };

export interface ReclamationRequest {
  projectId: string;
  sessionId: string;
  selection: SpanSelection;
  summary: CandidateSummary;
  dryRun: boolean;
  /** Who asked: "api-key:<prefix>", "user:<email>", "importer:<format>". */
  requester: string;
  /** Who the audit log names; read from `requester` when not given. */
  actor?: Actor;
  /** When the compaction happened; defaults to now. Importers pass the transcript's own time. */
  at?: Date;
  /**
   * The runtime already compacted without asking the gate (an import, or a runtime that reports
   * after the fact). Every selected span is recorded as replaced, whatever the gate would have
   * said; the decisions record what it would have said, so lost evidence shows where it was lost.
   */
  observed?: boolean;
  /** The summary is already a span of the session (an imported compaction record): link it instead of creating one. */
  summarySpanId?: string;
}

export interface ReclamationResult {
  reclamationId: string;
  dryRun: boolean;
  decisions: GateDecision[];
  /** The summary span recorded for the reclaimed spans; null on a dry run or when all were refused. */
  summarySpanId: string | null;
}

/**
 * A compactor asks to replace stored spans with its summary. The gate decides per span; for real
 * runs the decisions, refusal events, the summary span and its lineage links and the new
 * transcript states are written in one transaction. A refused span stays verbatim.
 */
export async function reclaim(request: ReclamationRequest): Promise<ReclamationResult> {
  try {
    return await db().$transaction((tx) => reclaimIn(tx, request), { timeout: 60_000, maxWait: 30_000 });
  } catch (error) {
    if (isConcurrencyConflict(error))
      throw new AppError("CONFLICT", "Another reclamation changed these spans at the same time; nothing was written", {
        headers: { "Retry-After": "1" },
      });
    throw error;
  }
}

/**
 * Postgres' verdicts on transactions that collided: a unique violation (a link written twice), a
 * serialization failure, a deadlock. Prisma reports them under its own codes, or as the driver
 * adapter's error kind with the original SQLSTATE.
 */
function isConcurrencyConflict(error: unknown): boolean {
  const codes = new Set(["P2002", "P2034", "23505", "40001", "40P01"]);
  const kinds = new Set(["UniqueConstraintViolation", "TransactionWriteConflict"]);
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const o = e as {
      code?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof o.code === "string" && codes.has(o.code)) return true;
    if (typeof o.originalCode === "string" && codes.has(o.originalCode)) return true;
    if (typeof o.kind === "string" && kinds.has(o.kind)) return true;
    e = o.meta?.driverAdapterError ?? o.cause;
  }
  return false;
}

export async function reclaimIn(tx: DbTx, request: ReclamationRequest): Promise<ReclamationResult> {
  const { projectId, sessionId } = request;
  const now = request.at ?? new Date();
  const session = await tx.session.findFirst({ where: { id: sessionId, projectId } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");

  // Concurrent reclamations over the same spans take turns: the later one reads what the earlier
  // committed (each statement sees the latest committed rows) and finds them already reclaimed.
  await lockSpans(tx, sessionId, request.selection);
  const spans = await selectSpans(tx, sessionId, request.selection);
  const unavailable = spans.filter((s) => s.transcriptState === "RECLAIMED" || s.transcriptState === "RECLAIMED_HONEST");
  if (unavailable.length > 0) {
    throw new AppError("CONFLICT", `${unavailable.length} of the selected spans were already reclaimed`, {
      details: { spanIds: unavailable.map((s) => s.id) },
    });
  }

  const policy = await loadPolicy(tx, projectId);
  // Hashed again now: what the gate lets go leaves the transcript for good.
  const originals = await loadOriginalFacts(
    tx,
    sessionId,
    spans.map((s) => s.id),
    "live",
  );
  const atomsBySpan = await loadAtoms(
    tx,
    sessionId,
    spans.map((s) => s.id),
  );
  const gateSpans: GateSpan[] = spans.map((span) => ({
    id: span.id,
    class: span.class,
    atoms: atomsBySpan.get(span.id) ?? [],
    hasPointer: span.hasPointer,
    original: originals.get(span.id) ?? null,
    occurredAt: span.occurredAt,
    sha256: span.sha256,
  }));
  const decisions = evaluateGate({ spans: gateSpans, summary: request.summary, policy, now });
  const reclamationId = randomUUID();
  if (request.dryRun) return { reclamationId, dryRun: true, decisions, summarySpanId: null };

  const spanById = new Map(spans.map((s) => [s.id, s]));
  const observed = request.observed === true;
  const stateFor = (verdict: Verdict) => transcriptStateFor(verdict, observed);
  const replaced = observed ? decisions : decisions.filter((d) => d.verdict !== "REFUSE");
  const summarySpanId =
    replaced.length > 0
      ? await recordSummarySpan(tx, {
          sessionId,
          cwd: session.cwd,
          summary: request.summary,
          at: now,
          replaced: replaced.map((d) => spanById.get(d.spanId)!),
          atomsBySpan,
          policy,
          existingId: request.summarySpanId,
        })
      : null;

  for (const decision of decisions) {
    const span = spanById.get(decision.spanId)!;
    const pointed = request.summary.pointers.some((p) => p.spanId === span.id && p.sha256 === span.sha256);
    await tx.span.update({
      where: { sessionId_id: { sessionId, id: span.id } },
      data: {
        transcriptState: stateFor(decision.verdict),
        ...(stateFor(decision.verdict) !== "PRESERVED" ? { hasPointer: pointed } : {}),
      },
    });
    const decisionId = randomUUID();
    await tx.gateDecision.create({
      data: {
        sessionId,
        id: decisionId,
        spanId: span.id,
        reclamationId,
        verdict: decision.verdict,
        cellClass: decision.cell.class,
        cellProvenance: decision.cell.provenance,
        reason:
          observed && decision.verdict === "REFUSE"
            ? `Compacted by the runtime without the gate, which would have refused: ${decision.reason}`
            : decision.reason,
        requester: request.requester,
        decidedAt: now,
      },
    });
    if (decision.verdict === "REFUSE" && !observed) {
      await tx.refusalEvent.create({
        data: {
          sessionId,
          id: randomUUID(),
          projectId,
          spanId: span.id,
          decisionId,
          cellClass: decision.cell.class,
          cellProvenance: decision.cell.provenance,
          reason: decision.reason,
          requester: request.requester,
          atomsAtRisk: (decision.atomsAtRisk ?? []).map(atomJson) as Prisma.InputJsonValue,
          occurredAt: now,
        },
      });
    }
  }
  const verdicts: Record<string, number> = {};
  for (const d of decisions) verdicts[d.verdict] = (verdicts[d.verdict] ?? 0) + 1;
  await writeAudit(tx, {
    projectId,
    actor: request.actor ?? actorOf(request.requester),
    act: "reclamation.commit",
    targetType: "session",
    targetId: sessionId,
    after: {
      reclamationId,
      observed,
      summarySpanId,
      verdicts,
      replacedSpanIds: replaced.map((d) => d.spanId),
      refusedSpanIds: observed ? [] : decisions.filter((d) => d.verdict === "REFUSE").map((d) => d.spanId),
    },
    reason: observed ? "Compacted by the runtime; recorded as observed" : null,
    at: now,
  });
  return { reclamationId, dryRun: false, decisions, summarySpanId };
}

/** The audit log's actor for a requester string: a signed-in person, an API key, or the system (an importer). */
export function actorOf(requester: string): Actor {
  const colon = requester.indexOf(":");
  const kind = colon < 0 ? "" : requester.slice(0, colon);
  const who = colon < 0 ? requester : requester.slice(colon + 1);
  if (kind === "user") return { type: "USER", label: who };
  if (kind === "api-key") return { type: "API_KEY", label: who };
  return { type: "SYSTEM", label: requester || "system" };
}

type SelectedSpan = Awaited<ReturnType<typeof selectSpans>>[number];

/** Row locks on the selected spans, taken in one statement in id order (so two selections cannot deadlock). */
async function lockSpans(tx: DbTx, sessionId: string, selection: SpanSelection): Promise<void> {
  if ("spanIds" in selection) {
    await tx.$queryRaw`select id from span where session_id = ${sessionId}::uuid and id = any(${[...new Set(selection.spanIds)]}::uuid[])
                        order by id for update`;
  } else {
    await tx.$queryRaw`select id from span where session_id = ${sessionId}::uuid and seq between ${selection.fromSeq} and ${selection.toSeq}
                        order by id for update`;
  }
}

async function selectSpans(tx: DbTx, sessionId: string, selection: SpanSelection) {
  const select = {
    id: true,
    seq: true,
    class: true,
    transcriptState: true,
    hasPointer: true,
    occurredAt: true,
    sha256: true,
    generation: true,
  } as const;
  if ("spanIds" in selection) {
    const ids = [...new Set(selection.spanIds)];
    const spans = await tx.span.findMany({ where: { sessionId, id: { in: ids } }, select, orderBy: { seq: "asc" } });
    if (spans.length !== ids.length) {
      const found = new Set(spans.map((s) => s.id));
      throw new AppError("NOT_FOUND", "Some spans are not in this session", {
        details: { spanIds: ids.filter((id) => !found.has(id)) },
      });
    }
    return spans;
  }
  const spans = await tx.span.findMany({
    where: { sessionId, seq: { gte: selection.fromSeq, lte: selection.toSeq } },
    select,
    orderBy: { seq: "asc" },
  });
  if (spans.length === 0)
    throw new AppError("NOT_FOUND", `No spans with seq ${selection.fromSeq}..${selection.toSeq} in this session`);
  return spans;
}

export async function loadAtoms(tx: DbTx, sessionId: string, spanIds: string[]): Promise<Map<string, Atom[]>> {
  const rows = await tx.evidenceAtom.findMany({
    where: { sessionId, spanId: { in: spanIds } },
    orderBy: [{ spanId: "asc" }, { ordinal: "asc" }],
  });
  const bySpan = new Map<string, Atom[]>();
  for (const row of rows) {
    const atom: Atom = {
      kind: row.kind,
      text: row.text,
      normalized: row.normalized,
      byteStart: row.byteStart,
      byteEnd: row.byteEnd,
      ...(row.effect ? { effect: row.effect } : {}),
      ...(row.negated ? { negated: true } : {}),
      ...(row.argName ? { argName: row.argName } : {}),
    };
    const list = bySpan.get(row.spanId);
    if (list) list.push(atom);
    else bySpan.set(row.spanId, [atom]);
  }
  return bySpan;
}

/**
 * The summary becomes a span of its own (or already is one, when imported): its bytes are the
 * summary text, its class the highest among what it replaces (class never goes down), its
 * generation one more than its deepest parent. Then one link per replaced span.
 */
async function recordSummarySpan(
  tx: DbTx,
  input: {
    sessionId: string;
    cwd: string | null;
    summary: CandidateSummary;
    at: Date;
    replaced: SelectedSpan[];
    atomsBySpan: Map<string, Atom[]>;
    policy: Awaited<ReturnType<typeof loadPolicy>>;
    existingId?: string;
  },
): Promise<string> {
  const { sessionId, summary, replaced } = input;
  const id = input.existingId
    ? await ratchetSummarySpan(tx, sessionId, input.existingId, replaced)
    : await createSummarySpan(tx, input);
  for (const span of replaced) {
    const pointer = summary.pointers.find((p) => p.spanId === span.id && p.sha256 === span.sha256);
    const { dropped } = compareSummary(input.atomsBySpan.get(span.id) ?? [], summary.text);
    await tx.summaryLink.create({
      data: {
        sessionId,
        summarySpanId: id,
        replacedSpanId: span.id,
        pointerStart: pointer?.byteStart ?? null,
        pointerEnd: pointer?.byteEnd ?? null,
        pointerSha256: pointer?.sha256 ?? null,
        dropped: countByKind(dropped) as unknown as Prisma.InputJsonValue,
      },
    });
  }
  return id;
}

/** An existing summary span takes the class of what it replaces if higher, and its generation. */
async function ratchetSummarySpan(tx: DbTx, sessionId: string, id: string, replaced: SelectedSpan[]): Promise<string> {
  const span = await tx.span.findFirst({
    where: { sessionId, id, kind: "SUMMARY" },
    select: { class: true, classReasons: true },
  });
  if (!span) throw new AppError("NOT_FOUND", "The summary span is not in this session");
  const cls = maxClassOf([span.class, ...replaced.map((s) => s.class)]);
  const reasons = Array.isArray(span.classReasons) ? span.classReasons : [];
  await tx.span.update({
    where: { sessionId_id: { sessionId, id } },
    data: {
      class: cls,
      generation: 1 + Math.max(...replaced.map((s) => s.generation)),
      classReasons: [
        ...reasons,
        { class: cls, rule: "summary.roots", detail: `Highest class among the ${replaced.length} spans it replaces` },
      ] as Prisma.InputJsonValue,
    },
  });
  return id;
}

async function createSummarySpan(
  tx: DbTx,
  input: {
    sessionId: string;
    cwd: string | null;
    summary: CandidateSummary;
    at: Date;
    replaced: SelectedSpan[];
    policy: Awaited<ReturnType<typeof loadPolicy>>;
  },
): Promise<string> {
  const { sessionId, summary, at, replaced } = input;
  const body = new TextEncoder().encode(summary.text);
  const analysis = analyzeSpan({ body, kind: "SUMMARY", cwd: input.cwd ?? undefined });
  const cls: EvidentialClass = maxClassOf([analysis.classification.class, ...replaced.map((s) => s.class)]);
  const id = randomUUID();
  const sha256 = sha256Hex(body);
  await tx.span.create({
    data: {
      sessionId,
      id,
      seq: null,
      kind: "SUMMARY",
      occurredAt: at,
      class: cls,
      classReasons: [
        ...analysis.classification.reasons,
        { class: cls, rule: "summary.roots", detail: `Highest class among the ${replaced.length} spans it replaces` },
      ] as unknown as Prisma.InputJsonValue,
      byteLength: body.byteLength,
      sha256,
      generation: 1 + Math.max(...replaced.map((s) => s.generation)),
      original: { create: { bytes: body, sha256, expiresAt: expiresAtFor(cls, at, input.policy) } },
    },
  });
  await executeBulk(tx, atomRowsInsert(atomRowsFor(sessionId, id, analysis.atoms)));
  return id;
}
