import { db, type DbTx } from "@/lib/db/client";
import { SWEEPER, writeAudits } from "@/lib/server/audit";
import { ttlPassedSql } from "@/lib/server/provenance";
import { groupBy } from "@/lib/core/group";

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

/** Originals deleted per transaction: one statement, its triggers run once, its audit rows with it. */
const SWEEP_BATCH = 500;

/**
 * Deletes the bytes of originals whose TTL passed and that are not pinned, a batch per
 * transaction. Each session's originals of the batch are locked, re-checking "not pinned and
 * expired" under each row's lock, so a pin or an extension committed a moment earlier wins; rows a
 * concurrent act holds are skipped (SKIP LOCKED: the sweeper never waits on an operator, so the two
 * cannot deadlock) and left for the next run. Per session because on a Citus cluster a row lock
 * must name its session (one shard; docs/citus.md). The audit rows (what moved to LOST) commit with
 * their deletions.
 */
export async function sweep(now = new Date(), limit = 10_000, scrubLimit = 2_000): Promise<SweepResult> {
  const candidates = await db().$queryRaw<Candidate[]>`
    select o.session_id::text as session_id, o.span_id::text as span_id, s.project_id::text as project_id
      from span_original o join session s on s.id = o.session_id
     where ${ttlPassedSql("o.expires_at", now)} and o.pinned = false and o.bytes is not null
     order by o.expires_at
     limit ${limit}`;
  const lost: string[] = [];
  let deleted = 0;
  for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
    const moved = await sweepBatch(candidates.slice(i, i + SWEEP_BATCH), now);
    deleted += moved.length;
    for (const m of moved) lost.push(...m);
  }
  const scrubbed = await scrub(now, scrubLimit);
  return {
    deleted,
    lostSpanIds: [...lost, ...scrubbed.lostSpanIds],
    verified: scrubbed.verified,
    damaged: scrubbed.damaged,
  };
}

/** One transaction: deletes what is still due of `batch`; per deleted original, what moved to LOST. */
async function sweepBatch(batch: Candidate[], now: Date): Promise<string[][]> {
  const projectOf = new Map(batch.map((c) => [c.span_id, c.project_id]));
  return db().$transaction(
    async (tx) => {
      const rows: Array<{ session_id: string; span_id: string; expires_at: Date }> = [];
      for (const group of bySession(batch)) {
        const session = group[0]!.session_id;
        const due = await tx.$queryRaw<Array<{ span_id: string }>>`
          select o.span_id::text as span_id from span_original o
           where o.session_id = ${session}::uuid and o.span_id = any(${group.map((c) => c.span_id)}::uuid[])
             and o.pinned = false and ${ttlPassedSql("o.expires_at", now)} and o.bytes is not null
             for update skip locked`;
        if (due.length === 0) continue;
        rows.push(
          ...(await tx.$queryRaw<Array<{ session_id: string; span_id: string; expires_at: Date }>>`
          update span_original o set bytes = null, deleted_at = ${now}, delete_reason = 'ttl expired'
           where o.session_id = ${session}::uuid and o.span_id = any(${due.map((d) => d.span_id)}::uuid[])
          returning o.session_id::text as session_id, o.span_id::text as span_id, o.expires_at`),
        );
      }
      if (rows.length === 0) return [];
      const moved = await movedToLost(tx, rows);
      await writeAudits(
        tx,
        rows.map((r, i) => ({
          projectId: projectOf.get(r.span_id)!,
          actor: SWEEPER,
          act: "original.sweep",
          targetType: "span",
          targetId: r.span_id,
          before: { expiresAt: r.expires_at, present: true },
          after: { present: false, movedToLost: moved[i]! },
          reason: "TTL passed and the original was not pinned",
          at: now,
        })),
      );
      return moved;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/**
 * Hashes again the held originals verified longest ago. An original is verified when its bytes
 * are written (a trigger hashes them), which is what every read of its state relies on; bytes
 * changed behind the database's back (storage damage, a restore gone wrong) are caught here, a
 * batch per sweep, and recorded as a hash mismatch (LOST) with an audit row of what moved to LOST.
 */
export async function scrub(
  now = new Date(),
  limit = 2_000,
): Promise<{ verified: number; damaged: number; lostSpanIds: string[] }> {
  // The originals verified longest ago, then each session's of them hashed again under their locks
  // (rows a concurrent act holds are skipped): on a Citus cluster a row lock names its session.
  const picked = await db().$queryRaw<Array<{ session_id: string; span_id: string; project_id: string }>>`
    select o.session_id::text as session_id, o.span_id::text as span_id, s.project_id::text as project_id
      from span_original o join session s on s.id = o.session_id
     where o.bytes_state <> 'DELETED' order by o.verified_at limit ${limit}`;
  const projectOf = new Map(picked.map((p) => [p.session_id, p.project_id]));
  const rows: Array<{ session_id: string; span_id: string; project_id: string; was_held: boolean; held: boolean }> = [];
  for (const group of bySession(picked)) {
    const session = group[0]!.session_id;
    const scrubbed = await db().$transaction(async (tx) => {
      const locked = await tx.$queryRaw<Array<{ span_id: string; was_held: boolean }>>`
        select span_id::text as span_id, bytes_state = 'HELD' as was_held from span_original
         where session_id = ${session}::uuid and span_id = any(${group.map((g) => g.span_id)}::uuid[]) and bytes_state <> 'DELETED'
           for update skip locked`;
      if (locked.length === 0) return [];
      const after = await tx.$queryRaw<Array<{ span_id: string; held: boolean }>>`
        update span_original set bytes_state = bytes_state
         where session_id = ${session}::uuid and span_id = any(${locked.map((l) => l.span_id)}::uuid[])
        returning span_id::text as span_id, bytes_state = 'HELD' as held`;
      const wasHeld = new Map(locked.map((l) => [l.span_id, l.was_held]));
      return after.map((r) => ({
        session_id: session,
        span_id: r.span_id,
        project_id: projectOf.get(session)!,
        was_held: wasHeld.get(r.span_id) ?? false,
        held: r.held,
      }));
    });
    rows.push(...scrubbed);
  }
  // Only news: a mismatch recorded before was reported then.
  const damaged = rows.filter((r) => r.was_held && !r.held);
  if (damaged.length === 0) return { verified: rows.length, damaged: 0, lostSpanIds: [] };
  const moved = await db().$transaction(async (tx) => {
    const lost = await movedToLost(tx, damaged);
    await writeAudits(
      tx,
      damaged.map((d, i) => ({
        projectId: d.project_id,
        actor: SWEEPER,
        act: "original.hash_mismatch",
        targetType: "span",
        targetId: d.span_id,
        before: { verified: true },
        after: { verified: false, movedToLost: lost[i]! },
        reason: "The stored bytes no longer hash to the span's sha256",
        at: now,
      })),
    );
    return lost;
  });
  return { verified: rows.length, damaged: damaged.length, lostSpanIds: moved.flat() };
}

/**
 * Per span whose original just went, what moved to LOST with it: the span, then every summary
 * resting on it, however many generations up.
 */
async function movedToLost(tx: DbTx, spans: Array<{ session_id: string; span_id: string }>): Promise<string[][]> {
  // Each session's lineage on its own (one shard on a Citus cluster): links never cross sessions.
  const above: Array<{ span_id: string; summary_id: string }> = [];
  for (const group of bySession(spans)) {
    const session = group[0]!.session_id;
    above.push(
      ...(await tx.$queryRaw<Array<{ span_id: string; summary_id: string }>>`
      with recursive up(span_id, summary_id) as (
        select l.replaced_span_id, l.summary_span_id
          from summary_link l
         where l.session_id = ${session}::uuid and l.replaced_span_id = any(${group.map((r) => r.span_id)}::uuid[])
        union
        select up.span_id, l.summary_span_id
          from summary_link l join up on l.replaced_span_id = up.summary_id
         where l.session_id = ${session}::uuid)
      select span_id::text as span_id, summary_id::text as summary_id from up`),
    );
  }
  const summariesOf = new Map<string, string[]>();
  for (const a of above) {
    const list = summariesOf.get(a.span_id);
    if (list) list.push(a.summary_id);
    else summariesOf.set(a.span_id, [a.summary_id]);
  }
  return spans.map((s) => [s.span_id, ...(summariesOf.get(s.span_id) ?? [])]);
}

/** Rows grouped by their session, in the order each session first appears. */
const bySession = <T extends { session_id: string }>(rows: T[]): T[][] => [...groupBy(rows, (r) => r.session_id).values()];
