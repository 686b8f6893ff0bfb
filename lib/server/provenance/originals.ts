import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";
import { sha256Hex } from "@/lib/core/hash";

/**
 * The verbatim bytes of a span of the caller's project, verified against the span's sha256.
 * GONE (with the reason) once they were swept, passed their TTL unpinned, or no longer verify.
 */
export async function readOriginal(projectId: string, spanId: string, now = new Date()) {
  if (!isUuid(spanId)) throw new AppError("NOT_FOUND", "Span not found");
  const span = await db().span.findFirst({
    where: { id: spanId, session: { projectId } },
    select: { id: true, sessionId: true, sha256: true, original: true },
  });
  if (!span) throw new AppError("NOT_FOUND", "Span not found");
  const original = span.original;
  if (!original?.bytes) {
    throw new AppError("GONE", `The original is gone: ${original?.deleteReason ?? "it was never received"}`, {
      details: { deletedAt: original?.deletedAt?.toISOString() ?? null },
    });
  }
  if (!original.pinned && original.expiresAt && original.expiresAt.getTime() <= now.getTime()) {
    throw new AppError("GONE", "The original's TTL passed and it is not pinned; it awaits deletion", {
      details: { expiresAt: original.expiresAt.toISOString() },
    });
  }
  const bytes = new Uint8Array(original.bytes);
  if (sha256Hex(bytes) !== span.sha256) throw new AppError("GONE", "The held bytes no longer match the span's sha256");
  return {
    spanId: span.id,
    sessionId: span.sessionId,
    sha256: span.sha256,
    bytes,
    expiresAt: original.expiresAt,
    pinned: original.pinned,
  };
}
