/** The spans a reclamation names (by id or by seq range), locked and read inside its transaction. */
import { AppError } from "@/lib/core/errors";
import type { DbTx } from "@/lib/db/client";

export type SpanSelection = { spanIds: string[] } | { fromSeq: number; toSeq: number };

export type SelectedSpan = Awaited<ReturnType<typeof selectSpans>>[number];

/** Row locks on the selected spans, taken in one statement in id order (so two selections cannot deadlock). */
export async function lockSpans(tx: DbTx, sessionId: string, selection: SpanSelection): Promise<void> {
  if ("spanIds" in selection) {
    await tx.$queryRaw`select id from span where session_id = ${sessionId}::uuid and id = any(${[...new Set(selection.spanIds)]}::uuid[])
                        order by id for update`;
  } else {
    await tx.$queryRaw`select id from span where session_id = ${sessionId}::uuid and seq between ${selection.fromSeq} and ${selection.toSeq}
                        order by id for update`;
  }
}

export async function selectSpans(tx: DbTx, sessionId: string, selection: SpanSelection) {
  const select = {
    id: true,
    seq: true,
    class: true,
    transcriptState: true,
    hasPointer: true,
    occurredAt: true,
    sha256: true,
    generation: true,
  } as const;
  if ("spanIds" in selection) {
    const ids = [...new Set(selection.spanIds)];
    const spans = await tx.span.findMany({ where: { sessionId, id: { in: ids } }, select, orderBy: { seq: "asc" } });
    if (spans.length !== ids.length) {
      const found = new Set(spans.map((s) => s.id));
      throw new AppError("NOT_FOUND", "Some spans are not in this session", {
        details: { spanIds: ids.filter((id) => !found.has(id)) },
      });
    }
    return spans;
  }
  const spans = await tx.span.findMany({
    where: { sessionId, seq: { gte: selection.fromSeq, lte: selection.toSeq } },
    select,
    orderBy: { seq: "asc" },
  });
  if (spans.length === 0)
    throw new AppError("NOT_FOUND", `No spans with seq ${selection.fromSeq}..${selection.toSeq} in this session`);
  return spans;
}
