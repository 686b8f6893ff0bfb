import { db } from "@/lib/db/client";
import { makeHonestSummary } from "@/lib/evidence/manifest";
import type { CandidateSummary, ProvenancePointer } from "@/lib/evidence/types";
import { AppError } from "@/lib/core/errors";
import type { Actor } from "@/lib/server/audit";
import { reclaim } from "./reclaim";
import { loadAtoms } from "@/lib/server/atoms";

/**
 * A summary as a compactor that knows Custodian would send it: its text, optionally pointers to
 * the whole of each replaced original, and optionally a manifest naming what the text drops.
 * Used by the demo and by the dashboard's "Run gate" to try a compaction.
 */
export async function candidateSummaryFor(
  sessionId: string,
  spanIds: string[],
  text: string,
  options: { pointers: boolean; honest?: boolean },
): Promise<CandidateSummary> {
  if (!options.pointers) return { text, pointers: [] };
  const spans = await db().span.findMany({
    where: { sessionId, id: { in: spanIds } },
    select: { id: true, byteLength: true, sha256: true },
  });
  const pointers: ProvenancePointer[] = spans.map((s) => ({
    spanId: s.id,
    byteStart: 0,
    byteEnd: s.byteLength,
    sha256: s.sha256,
  }));
  if (!options.honest) return { text, pointers };
  const atoms = await loadAtoms(db(), sessionId, spanIds);
  return makeHonestSummary([...atoms.values()].flat(), text, pointers);
}

/**
 * The dashboard's "run the gate" form: a candidate summary over a session's seq range, judged as
 * a dry run or committed. The session's project comes from the session itself.
 */
export async function reclaimSeqRange(request: {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
  text: string;
  pointers: boolean;
  honest: boolean;
  dryRun: boolean;
  requester: string;
  actor?: Actor;
}) {
  const session = await db().session.findUnique({ where: { id: request.sessionId }, select: { projectId: true } });
  if (!session) throw new AppError("NOT_FOUND", "No such session");
  const spans = await db().span.findMany({
    where: { sessionId: request.sessionId, seq: { gte: request.fromSeq, lte: request.toSeq } },
    select: { id: true },
  });
  const summary = await candidateSummaryFor(
    request.sessionId,
    spans.map((s) => s.id),
    request.text,
    { pointers: request.pointers, honest: request.honest },
  );
  return reclaim({
    projectId: session.projectId,
    sessionId: request.sessionId,
    selection: { fromSeq: request.fromSeq, toSeq: request.toSeq },
    summary,
    dryRun: request.dryRun,
    requester: request.requester,
    actor: request.actor,
  });
}
