import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { db } from "@/lib/db/client";

/** The project a span belongs to: dashboard acts name a span, use cases are scoped by project. */
export async function projectOfSpan(spanId: string): Promise<string> {
  if (!isUuid(spanId)) throw new AppError("NOT_FOUND", "Span not found");
  const span = await db().span.findFirst({ where: { id: spanId }, select: { session: { select: { projectId: true } } } });
  if (!span) throw new AppError("NOT_FOUND", "Span not found");
  return span.session.projectId;
}
