/**
 * A refusal explains itself: the candidate summary it refused, the spans that summary would have
 * replaced with the atoms it dropped (by byte range, for highlighting in the original), and what
 * would have made each refused span acceptable, as the gate itself judges it.
 */
import { AppError } from "@/lib/core/errors";
import { sha256Hex } from "@/lib/core/hash";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import type { GateSpan } from "@/lib/evidence/gate";
import type {
  CandidateSummary,
  Cell,
  EvidentialClass,
  OmissionManifest,
  ProvenancePointer,
  SpanKind,
  Verdict,
} from "@/lib/evidence/types";
import { loadAtoms } from "@/lib/server/gate";
import { loadOriginalFacts } from "@/lib/server/provenance";
import { loadPolicy } from "@/lib/server/retention";
import { remediesFor, type SpanRemedies } from "./remedies";
import { ttlPassed } from "@/lib/evidence/expiry";

/** Spans of one compaction shown with their bodies: the refusal's own span first, then the refused, then the rest. */
export const EXPLAINED_SPANS = 50;

export interface AtomAtRisk {
  kind: string;
  text: string;
  normalized: string;
  byteStart: number;
  byteEnd: number;
}

export interface ExplainedSpan {
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  /** The cell the gate judged the span in when it decided. */
  cell: Cell;
  verdict: Verdict;
  reason: string;
  /** The span of the refusal this explanation is for. */
  focus: boolean;
  /** The verbatim bytes when still held and intact; rendered escaped. */
  body: Uint8Array | null;
  /** Why the body is not shown, when it is not. */
  bodyGone: string | null;
  /** What the summary would have lost of this span (refused spans only), by byte range. */
  atomsAtRisk: AtomAtRisk[];
  /** Refused spans only: what would have made the span acceptable. Null when the summary was not kept. */
  remedies: SpanRemedies | null;
}

export interface RefusalExplanation {
  refusal: {
    id: string;
    sessionId: string;
    sessionTitle: string;
    spanId: string;
    occurredAt: string;
    requester: string;
    reason: string;
    cell: Cell;
  };
  compaction: { id: string; asked: boolean; replacedCount: number; refusedCount: number; summarySpanId: string | null } | null;
  /** The candidate summary as sent; null for refusals recorded before summaries were kept. */
  summary: { text: string; pointers: ProvenancePointer[]; manifest: OmissionManifest | null } | null;
  spans: ExplainedSpan[];
  /** Spans the compaction covered in all (more than are shown when over EXPLAINED_SPANS). */
  spanTotal: number;
}

/**
 * One refusal of the project, explained. Scoped by project in the query: a refusal of another
 * project (or no refusal) is NOT_FOUND. Remedies are judged at `now` under the current policy.
 */
export async function refusalExplanation(projectId: string, refusalId: string, now = new Date()): Promise<RefusalExplanation> {
  if (!isUuid(refusalId)) throw new AppError("NOT_FOUND", "Refusal not found");
  const refusal = await db().refusalEvent.findFirst({
    where: { id: refusalId, projectId },
    include: { span: { select: { session: { select: { title: true, externalId: true } } } } },
  });
  if (!refusal) throw new AppError("NOT_FOUND", "Refusal not found");
  const { sessionId } = refusal;
  const decision = await db().gateDecision.findUnique({
    where: { sessionId_id: { sessionId, id: refusal.decisionId } },
    select: { reclamationId: true },
  });
  const reclamationId = decision?.reclamationId ?? null;
  const [compaction, decisions] = reclamationId
    ? await Promise.all([
        db().compaction.findUnique({ where: { sessionId_id: { sessionId, id: reclamationId } } }),
        db().gateDecision.findMany({ where: { sessionId, reclamationId, dryRun: false } }),
      ])
    : [null, []];
  const summary = storedSummary(compaction);
  const shown = orderForShowing(decisions, refusal.spanId).slice(0, EXPLAINED_SPANS);
  const spans = await explainSpans(projectId, sessionId, shown, refusal.spanId, summary, now);
  return {
    refusal: {
      id: refusal.id,
      sessionId,
      sessionTitle: refusal.span.session.title ?? refusal.span.session.externalId,
      spanId: refusal.spanId,
      occurredAt: refusal.occurredAt.toISOString(),
      requester: refusal.requester,
      reason: refusal.reason,
      cell: { class: refusal.cellClass, provenance: refusal.cellProvenance },
    },
    compaction: compaction && {
      id: compaction.id,
      asked: compaction.asked,
      replacedCount: compaction.replacedCount,
      refusedCount: compaction.refusedCount,
      summarySpanId: compaction.summarySpanId,
    },
    summary: summary && { text: summary.text, pointers: summary.pointers, manifest: summary.omissions ?? null },
    spans,
    spanTotal: Math.max(decisions.length, spans.length),
  };
}

function storedSummary(
  row: { summaryText: string | null; summaryPointers: unknown; summaryManifest: unknown } | null,
): CandidateSummary | null {
  if (!row || row.summaryText === null) return null;
  const pointers = Array.isArray(row.summaryPointers) ? (row.summaryPointers as ProvenancePointer[]) : [];
  const manifest = row.summaryManifest as OmissionManifest | null;
  return { text: row.summaryText, pointers, ...(manifest ? { omissions: manifest } : {}) };
}

type DecisionRow = {
  id: string;
  spanId: string;
  verdict: Verdict;
  cellClass: EvidentialClass;
  cellProvenance: Cell["provenance"];
  reason: string;
};

function orderForShowing<T extends DecisionRow>(decisions: T[], focusSpanId: string): T[] {
  const rank = (d: T) => (d.spanId === focusSpanId ? 0 : d.verdict === "REFUSE" ? 1 : 2);
  return [...decisions].sort((a, b) => rank(a) - rank(b));
}

async function explainSpans(
  projectId: string,
  sessionId: string,
  decisions: DecisionRow[],
  focusSpanId: string,
  summary: CandidateSummary | null,
  now: Date,
): Promise<ExplainedSpan[]> {
  const ids = decisions.map((d) => d.spanId);
  const refusedIds = decisions.filter((d) => d.verdict === "REFUSE").map((d) => d.spanId);
  const [rows, risks, facts, atoms, policy] = await Promise.all([
    db().span.findMany({
      where: { sessionId, id: { in: ids } },
      select: {
        id: true,
        seq: true,
        kind: true,
        class: true,
        byteLength: true,
        sha256: true,
        occurredAt: true,
        original: { select: { bytes: true, pinned: true, expiresAt: true, deleteReason: true } },
      },
    }),
    db().refusalEvent.findMany({
      where: { sessionId, projectId, decisionId: { in: decisions.map((d) => d.id) } },
      select: { spanId: true, atomsAtRisk: true },
    }),
    loadOriginalFacts(db(), sessionId, refusedIds),
    loadAtoms(db(), sessionId, refusedIds),
    loadPolicy(db(), projectId),
  ]);
  const span = new Map(rows.map((r) => [r.id, r]));
  const risk = new Map(
    risks.map((r) => [r.spanId, Array.isArray(r.atomsAtRisk) ? (r.atomsAtRisk as unknown as AtomAtRisk[]) : []]),
  );
  const out: ExplainedSpan[] = [];
  for (const d of decisions) {
    const s = span.get(d.spanId);
    if (!s) continue;
    const held = heldBody(s, now);
    let remedies: SpanRemedies | null = null;
    if (d.verdict === "REFUSE" && summary) {
      const gateSpan: GateSpan & { byteLength: number } = {
        id: s.id,
        class: s.class,
        atoms: atoms.get(s.id) ?? [],
        hasPointer: false,
        original: facts.get(s.id) ?? null,
        occurredAt: s.occurredAt,
        sha256: s.sha256,
        byteLength: s.byteLength,
      };
      remedies = remediesFor(gateSpan, summary, policy, now);
    }
    out.push({
      id: s.id,
      seq: s.seq,
      kind: s.kind,
      class: s.class,
      cell: { class: d.cellClass, provenance: d.cellProvenance },
      verdict: d.verdict,
      reason: d.reason,
      focus: s.id === focusSpanId,
      body: held.body,
      bodyGone: held.gone,
      atomsAtRisk: risk.get(s.id) ?? [],
      remedies,
    });
  }
  return out;
}

/** The original's bytes as evidence may be read now: held, intact, and not past an unpinned TTL. */
function heldBody(
  s: {
    sha256: string;
    original: { bytes: Uint8Array | null; pinned: boolean; expiresAt: Date | null; deleteReason: string | null } | null;
  },
  now: Date,
): { body: Uint8Array | null; gone: string | null } {
  const o = s.original;
  if (!o) return { body: null, gone: "The original was never received." };
  if (!o.bytes) return { body: null, gone: `The original is gone: ${o.deleteReason ?? "deleted"}.` };
  if (ttlPassed(o, now)) return { body: null, gone: "The original's TTL passed and it is not pinned; it awaits deletion." };
  const bytes = new Uint8Array(o.bytes);
  if (sha256Hex(bytes) !== s.sha256) return { body: null, gone: "The held bytes no longer match the span's sha256." };
  return { body: bytes, gone: null };
}
