import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { type Actor, writeAudit } from "@/lib/server/audit";
import { ttlPassedMs } from "@/lib/evidence/expiry";

/** One original, by its primary key. */
export interface OriginalKey {
  sessionId: string;
  spanId: string;
}

export interface BulkOutcome {
  /** How many originals were asked for (duplicates counted once). */
  requested: number;
  /** The originals this act changed; the others were already so, deleted, or not found. */
  changed: OriginalKey[];
}

/** The most originals one bulk act takes: a grid cell or a page of the at-risk list. */
export const BULK_LIMIT = 10_000;

function distinct(keys: OriginalKey[]): OriginalKey[] {
  const seen = new Map<string, OriginalKey>();
  for (const k of keys) seen.set(`${k.sessionId}/${k.spanId}`, { sessionId: k.sessionId, spanId: k.spanId });
  return [...seen.values()];
}

function checkSelection(keys: OriginalKey[], reason: string | null | undefined): { keys: OriginalKey[]; why: string } {
  const unique = distinct(keys);
  if (unique.length === 0)
    throw new AppError("VALIDATION_FAILED", "Select at least one span", { fields: [{ path: "spanId", message: "required" }] });
  if (unique.length > BULK_LIMIT)
    throw new AppError("VALIDATION_FAILED", `Select at most ${BULK_LIMIT} spans at once`, {
      fields: [{ path: "spanId", message: `at most ${BULK_LIMIT}` }],
    });
  const why = reason?.trim();
  if (!why)
    throw new AppError("VALIDATION_FAILED", "A bulk act needs a reason", { fields: [{ path: "reason", message: "required" }] });
  return { keys: unique, why };
}

/**
 * Pins many originals with one UPDATE. The rows are locked in key order and re-checked under the
 * lock ("held and not pinned"), so an original the sweeper deleted a moment earlier is skipped,
 * never reported pinned; the sweeper, which skips locked rows and re-checks "not pinned" itself,
 * never deletes one this pinned. One audit row names every span pinned. Originals of sessions outside
 * `projectId` are not touched, whatever the selection names.
 */
export async function pinOriginals(
  projectId: string,
  selection: OriginalKey[],
  actor: Actor,
  reason: string | null | undefined,
): Promise<BulkOutcome> {
  const { keys, why } = checkSelection(selection, reason);
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ session_id: string; span_id: string }>>`
      with sel as (
        select o.session_id, o.span_id
          from unnest(${keys.map((k) => k.sessionId)}::uuid[], ${keys.map((k) => k.spanId)}::uuid[]) as k(session_id, span_id)
          join span_original o on o.session_id = k.session_id and o.span_id = k.span_id
          join session se on se.id = o.session_id
         where o.bytes is not null and o.pinned = false and se.project_id = ${projectId}::uuid
         order by o.session_id, o.span_id
           for update of o)
      update span_original o set pinned = true
        from sel
       where o.session_id = sel.session_id and o.span_id = sel.span_id
      returning o.session_id::text as session_id, o.span_id::text as span_id`;
    if (rows.length > 0)
      await writeAudit(tx, {
        projectId,
        actor,
        act: "originals.pin",
        targetType: "project",
        targetId: projectId,
        before: { pinned: false },
        after: { pinned: true, spans: rows.map((r) => ({ sessionId: r.session_id, spanId: r.span_id })) },
        reason: why,
      });
    return { requested: keys.length, changed: rows.map((r) => ({ sessionId: r.session_id, spanId: r.span_id })) };
  });
}

/**
 * Keeps many originals until `expiresAt` with one UPDATE: only an extension (an original that
 * expires later already, or never, is left as it is; shortening is an admin act on one original).
 * One audit row names every span with its previous expiry; only originals of `projectId`'s sessions.
 */
export async function extendOriginals(
  projectId: string,
  selection: OriginalKey[],
  actor: Actor,
  expiresAt: Date,
  reason: string | null | undefined,
  now = new Date(),
): Promise<BulkOutcome> {
  const { keys, why } = checkSelection(selection, reason);
  if (ttlPassedMs(expiresAt.getTime(), now.getTime())) {
    throw new AppError("VALIDATION_FAILED", "A new expiry must be in the future", {
      fields: [{ path: "days", message: "must be in the future" }],
    });
  }
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ session_id: string; span_id: string; before: Date }>>`
      with sel as (
        select o.session_id, o.span_id, o.expires_at
          from unnest(${keys.map((k) => k.sessionId)}::uuid[], ${keys.map((k) => k.spanId)}::uuid[]) as k(session_id, span_id)
          join span_original o on o.session_id = k.session_id and o.span_id = k.span_id
          join session se on se.id = o.session_id
         where o.bytes is not null and o.expires_at is not null and o.expires_at < ${expiresAt}
           and se.project_id = ${projectId}::uuid
         order by o.session_id, o.span_id
           for update of o)
      update span_original o set expires_at = ${expiresAt}
        from sel
       where o.session_id = sel.session_id and o.span_id = sel.span_id
      returning o.session_id::text as session_id, o.span_id::text as span_id, sel.expires_at as before`;
    if (rows.length > 0)
      await writeAudit(tx, {
        projectId,
        actor,
        act: "originals.extend",
        targetType: "project",
        targetId: projectId,
        before: { spans: rows.map((r) => ({ sessionId: r.session_id, spanId: r.span_id, expiresAt: r.before })) },
        after: { expiresAt, spans: rows.map((r) => ({ sessionId: r.session_id, spanId: r.span_id })) },
        reason: why,
        at: now,
      });
    return { requested: keys.length, changed: rows.map((r) => ({ sessionId: r.session_id, spanId: r.span_id })) };
  });
}
