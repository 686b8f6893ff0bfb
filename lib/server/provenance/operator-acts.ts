import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db, type DbTx } from "@/lib/db/client";
import { writeAudit, type Actor } from "@/lib/server/audit";
import { ttlPassedMs } from "@/lib/evidence/expiry";

/**
 * Operator and admin acts on an original's retention. Each locks the original's row, changes it
 * and writes its audit row in one transaction, so a concurrent sweep either sees the new state or
 * has already recorded the deletion (then the act fails with GONE and changes nothing).
 */

interface OriginalRef {
  projectId: string;
  spanId: string;
}

interface LockedOriginal {
  session_id: string;
  span_id: string;
  expires_at: Date | null;
  pinned: boolean;
  present: boolean;
}

async function lockOriginal(tx: DbTx, ref: OriginalRef): Promise<LockedOriginal> {
  if (!isUuid(ref.spanId)) throw new AppError("NOT_FOUND", "Span not found");
  // The span's session first, then the original locked by its key: a lock must name the session
  // on a Citus cluster (a row lock over every shard is refused; docs/citus.md).
  const [found] = await tx.$queryRaw<Array<{ session_id: string }>>`
    select o.session_id::text as session_id
      from span_original o join session s on s.id = o.session_id
     where o.span_id = ${ref.spanId}::uuid and s.project_id = ${ref.projectId}::uuid`;
  if (!found) throw new AppError("NOT_FOUND", "Span not found");
  const rows = await tx.$queryRaw<LockedOriginal[]>`
    select o.session_id::text as session_id, o.span_id::text as span_id, o.expires_at, o.pinned, o.bytes is not null as present
      from span_original o
     where o.session_id = ${found.session_id}::uuid and o.span_id = ${ref.spanId}::uuid
       for update`;
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", "Span not found");
  if (!row.present) throw new AppError("GONE", "The original was already deleted; there is nothing left to retain");
  return row;
}

function requireReason(reason: string | undefined | null, act: string): string {
  const trimmed = reason?.trim();
  if (!trimmed)
    throw new AppError("VALIDATION_FAILED", `${act} needs a reason`, { fields: [{ path: "reason", message: "required" }] });
  return trimmed;
}

export async function pinOriginal(ref: OriginalRef, actor: Actor, reason?: string | null) {
  return db().$transaction(async (tx) => {
    const row = await lockOriginal(tx, ref);
    if (row.pinned) return { changed: false };
    await tx.spanOriginal.update({
      where: { sessionId_spanId: { sessionId: row.session_id, spanId: row.span_id } },
      data: { pinned: true },
    });
    await writeAudit(tx, {
      projectId: ref.projectId,
      actor,
      act: "original.pin",
      targetType: "span",
      targetId: ref.spanId,
      before: { pinned: false },
      after: { pinned: true },
      reason: reason ?? null,
    });
    return { changed: true };
  });
}

/** Lifting a legal hold is an admin act and needs a reason. */
export async function unpinOriginal(ref: OriginalRef, actor: Actor, reason: string) {
  const why = requireReason(reason, "Unpinning");
  return db().$transaction(async (tx) => {
    const row = await lockOriginal(tx, ref);
    if (!row.pinned) return { changed: false };
    await tx.spanOriginal.update({
      where: { sessionId_spanId: { sessionId: row.session_id, spanId: row.span_id } },
      data: { pinned: false },
    });
    await writeAudit(tx, {
      projectId: ref.projectId,
      actor,
      act: "original.unpin",
      targetType: "span",
      targetId: ref.spanId,
      before: { pinned: true },
      after: { pinned: false },
      reason: why,
    });
    return { changed: true };
  });
}

/**
 * Moves an original's expiry. Later is an extension (operator); earlier is a shortening (admin,
 * with a reason). The caller checks the role; this checks the reason and refuses a date in the past.
 */
export async function setOriginalExpiry(
  ref: OriginalRef,
  actor: Actor,
  expiresAt: Date,
  reason?: string | null,
  now = new Date(),
  options: { allowShorten?: boolean } = { allowShorten: true },
) {
  // An expiry that has already passed would delete the original at once (the sweeper's rule).
  if (ttlPassedMs(expiresAt.getTime(), now.getTime())) {
    throw new AppError("VALIDATION_FAILED", "A new expiry must be in the future", {
      fields: [{ path: "expiresAt", message: "must be in the future" }],
    });
  }
  return db().$transaction(async (tx) => {
    const row = await lockOriginal(tx, ref);
    const shortening = row.expires_at === null || expiresAt.getTime() < row.expires_at.getTime();
    // Decided under the row lock: whether this is a shortening depends on the current expiry.
    if (shortening && !options.allowShorten) {
      throw new AppError("FORBIDDEN", "That date is earlier than the current expiry: shortening a TTL is an admin act");
    }
    const why = shortening ? requireReason(reason, "Shortening a TTL") : reason?.trim() || null;
    await tx.spanOriginal.update({
      where: { sessionId_spanId: { sessionId: row.session_id, spanId: row.span_id } },
      data: { expiresAt },
    });
    await writeAudit(tx, {
      projectId: ref.projectId,
      actor,
      act: shortening ? "original.shorten" : "original.extend",
      targetType: "span",
      targetId: ref.spanId,
      before: { expiresAt: row.expires_at },
      after: { expiresAt },
      reason: why,
      at: now,
    });
    return { shortened: shortening };
  });
}
