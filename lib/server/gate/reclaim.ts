import { randomUUID } from "node:crypto";
import { AppError, databaseErrorIs, isTransactionConflict } from "@/lib/core/errors";
import { transcriptStateFor } from "@/lib/evidence/transcript-state";
import type { Verdict } from "@/lib/evidence/types";
import { db, type DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { evaluateGate, type GateDecision, type GateSpan } from "@/lib/evidence/gate";
import type { CandidateSummary } from "@/lib/evidence/types";
import { atomJson } from "./decision-json";
import { loadOriginalFacts } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { type Actor, writeAudit } from "@/lib/server/audit";
import { lockSpans, selectSpans, type SpanSelection } from "./span-selection";
import { recordCompaction } from "./compaction-record";
import { recordSummarySpan } from "./summary-span";
import { loadAtoms } from "@/lib/server/atoms";

export type { SpanSelection } from "./span-selection";

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
  // A dry run only reads, statement by statement, each seeing the latest committed rows: it needs
  // no transaction of its own (a hook asks one before every compaction).
  if (request.dryRun) return reclaimIn(db(), request);
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

/** A link written twice by two reclamations at once, or their transactions colliding. */
const isConcurrencyConflict = (error: unknown) =>
  databaseErrorIs(error, new Set(["P2002", "23505"]), new Set(["UniqueConstraintViolation"])) || isTransactionConflict(error);

export async function reclaimIn(tx: DbTx, request: ReclamationRequest): Promise<ReclamationResult> {
  const { projectId, sessionId } = request;
  const now = request.at ?? new Date();
  const session = await tx.session.findFirst({ where: { id: sessionId, projectId } });
  if (!session) throw new AppError("NOT_FOUND", "Session not found");

  // Concurrent reclamations over the same spans take turns: the later one reads what the earlier
  // committed (each statement sees the latest committed rows) and finds them already reclaimed. A
  // dry run writes nothing, so it takes no locks (row locks are writes) and waits on no one.
  if (!request.dryRun) await lockSpans(tx, sessionId, request.selection);
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
          projectId,
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
          requestId: reclamationId,
          spanSeq: span.seq,
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
  await recordCompaction(tx, {
    projectId,
    sessionId,
    reclamationId,
    summarySpanId,
    observed,
    decisions,
    replacedCount: replaced.length,
    summary: request.summary,
    requester: request.requester,
    at: now,
  });
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
