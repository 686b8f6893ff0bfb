import { db } from "@/lib/db/client";
import { SWEEPER, writeAudit } from "./audit";

export interface SweepResult {
  deleted: number;
  /** Spans whose evidence this sweep moved to LOST: the swept spans and the summaries resting on them. */
  lostSpanIds: string[];
}

interface Candidate {
  session_id: string;
  span_id: string;
  project_id: string;
}

/**
 * Deletes the bytes of originals whose TTL passed and that are not pinned. Each deletion is one
 * conditional UPDATE that re-checks "not pinned and expired" under the row lock, so a pin or an
 * extension committed a moment earlier wins; the audit row (what moved to LOST) commits with it.
 */
export async function sweep(now = new Date(), limit = 10_000): Promise<SweepResult> {
  const candidates = await db().$queryRaw<Candidate[]>`
    select o.session_id::text as session_id, o.span_id::text as span_id, s.project_id::text as project_id
      from span_original o join session s on s.id = o.session_id
     where o.expires_at <= ${now} and o.pinned = false and o.bytes is not null
     order by o.expires_at
     limit ${limit}`;
  const lost: string[] = [];
  let deleted = 0;
  for (const candidate of candidates) {
    const affected = await db().$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ expires_at: Date }>>`
        update span_original set bytes = null, deleted_at = ${now}, delete_reason = 'ttl expired'
         where session_id = ${candidate.session_id}::uuid and span_id = ${candidate.span_id}::uuid
           and pinned = false and expires_at <= ${now} and bytes is not null
        returning expires_at`;
      if (rows.length === 0) return null;
      const summaries = await tx.$queryRaw<Array<{ id: string }>>`
        with recursive up(id) as (
          select summary_span_id from summary_link
           where session_id = ${candidate.session_id}::uuid and replaced_span_id = ${candidate.span_id}::uuid
          union
          select l.summary_span_id from summary_link l join up on l.replaced_span_id = up.id
           where l.session_id = ${candidate.session_id}::uuid)
        select id::text as id from up`;
      const movedToLost = [candidate.span_id, ...summaries.map((s) => s.id)];
      await writeAudit(tx, {
        projectId: candidate.project_id,
        actor: SWEEPER,
        act: "original.sweep",
        targetType: "span",
        targetId: candidate.span_id,
        before: { expiresAt: rows[0]!.expires_at, present: true },
        after: { present: false, movedToLost },
        reason: "TTL passed and the original was not pinned",
        at: now,
      });
      return movedToLost;
    });
    if (affected) {
      deleted += 1;
      lost.push(...affected);
    }
  }
  return { deleted, lostSpanIds: lost };
}
