/** The span a reclamation's summary becomes (or an imported one it reuses), and its lineage links to the spans it replaces. */
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { sha256Hex } from "@/lib/core/hash";
import type { DbTx } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { maxClassOf } from "@/lib/evidence/classes";
import { compareSummary, countByKind } from "@/lib/evidence/manifest";
import { expiresAtFor } from "@/lib/evidence/policy";
import type { Atom, CandidateSummary, EvidentialClass } from "@/lib/evidence/types";
import { atomRowsFor, atomRowsInsert, executeBulk } from "@/lib/server/ingest";
import type { loadPolicy } from "@/lib/server/retention";
import type { SelectedSpan } from "./span-selection";

/**
 * The summary becomes a span of its own (or already is one, when imported): its bytes are the
 * summary text, its class the highest among what it replaces (class never goes down), its
 * generation one more than its deepest parent. Then one link per replaced span.
 */
export async function recordSummarySpan(
  tx: DbTx,
  input: {
    projectId: string;
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
    projectId: string;
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
  await executeBulk(tx, atomRowsInsert(atomRowsFor({ projectId: input.projectId, sessionId }, id, analysis.atoms)));
  return id;
}
