import { db } from "@/lib/db/client";
import { SWEEPER, writeAudit } from "./audit";

export interface SweepResult {
  deleted: number;
  /** Spans whose evidence this sweep moved to LOST: the swept spans and the summaries resting on them. */
  lostSpanIds: string[];
  /** Originals whose bytes the scrub hashed again. */
  verified: number;
  /** Of those, the ones that no longer match their span's sha256 (now LOST, and in lostSpanIds). */
  damaged: number;
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
export async function sweep(now = new Date(), limit = 10_000, scrubLimit = 2_000): Promise<SweepResult> {
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
  const scrubbed = await scrub(now, scrubLimit);
  return { deleted, lostSpanIds: [...lost, ...scrubbed.lostSpanIds], verified: scrubbed.verified, damaged: scrubbed.damaged };
}

/**
 * Hashes again the held originals verified longest ago. An original is verified when its bytes
 * are written (a trigger hashes them), which is what every read of its state relies on; bytes
 * changed behind the database's back (storage damage, a restore gone wrong) are caught here, a
 * batch per sweep, and recorded as a hash mismatch (LOST) with an audit row of what moved to LOST.
 */
export async function scrub(now = new Date(), limit = 2_000): Promise<{ verified: number; damaged: number; lostSpanIds: string[] }> {
  const rows = await db().$queryRaw<Array<{ session_id: string; span_id: string; project_id: string; was_held: boolean; held: boolean }>>`
    with pick as (
      select session_id, span_id, bytes_state = 'HELD' as was_held from span_original
       where bytes_state <> 'DELETED' order by verified_at limit ${limit}
         for update skip locked)
    update span_original o set bytes_state = o.bytes_state
      from pick
     where o.session_id = pick.session_id and o.span_id = pick.span_id
    returning o.session_id::text as session_id, o.span_id::text as span_id,
              (select project_id::text from session where id = o.session_id) as project_id,
              pick.was_held, o.bytes_state = 'HELD' as held`;
  const lost: string[] = [];
  // Only news: a mismatch recorded before was reported then.
  const damaged = rows.filter((r) => r.was_held && !r.held);
  for (const d of damaged) {
    const movedToLost = await db().$transaction(async (tx) => {
      const summaries = await tx.$queryRaw<Array<{ id: string }>>`
        with recursive up(id) as (
          select summary_span_id from summary_link where session_id = ${d.session_id}::uuid and replaced_span_id = ${d.span_id}::uuid
          union
          select l.summary_span_id from summary_link l join up on l.replaced_span_id = up.id where l.session_id = ${d.session_id}::uuid)
        select id::text as id from up`;
      const moved = [d.span_id, ...summaries.map((s) => s.id)];
      await writeAudit(tx, {
        projectId: d.project_id,
        actor: SWEEPER,
        act: "original.hash_mismatch",
        targetType: "span",
        targetId: d.span_id,
        before: { verified: true },
        after: { verified: false, movedToLost: moved },
        reason: "The stored bytes no longer hash to the span's sha256",
        at: now,
      });
      return moved;
    });
    lost.push(...movedToLost);
  }
  return { verified: rows.length, damaged: damaged.length, lostSpanIds: lost };
}
