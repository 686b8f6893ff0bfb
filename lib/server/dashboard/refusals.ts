import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { EvidentialClass, ProvenanceStatus } from "@/lib/evidence/types";

export interface RefusalFilter {
  /** Always one project's: the feed never mixes projects. */
  projectId: string;
  sessionId?: string;
  cellClass?: EvidentialClass;
  cellProvenance?: ProvenanceStatus;
  since?: Date;
  limit?: number;
}

export interface RefusalRow {
  id: string;
  occurredAt: string;
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  cellClass: EvidentialClass;
  cellProvenance: ProvenanceStatus;
  reason: string;
  requester: string;
  atomsAtRisk: number;
}

function where(filter: RefusalFilter): Prisma.RefusalEventWhereInput {
  return {
    projectId: filter.projectId,
    ...(filter.sessionId ? { sessionId: filter.sessionId } : {}),
    ...(filter.cellClass ? { cellClass: filter.cellClass } : {}),
    ...(filter.cellProvenance ? { cellProvenance: filter.cellProvenance } : {}),
    ...(filter.since ? { occurredAt: { gte: filter.since } } : {}),
  };
}

/** A project's newest refusal events first (index on project_id, occurred_at), serialisable for the live feed. */
export async function listRefusals(filter: RefusalFilter): Promise<RefusalRow[]> {
  const events = await db().refusalEvent.findMany({
    where: where(filter),
    orderBy: { occurredAt: "desc" },
    take: Math.min(filter.limit ?? 100, 500),
    include: { span: { select: { seq: true, session: { select: { title: true, externalId: true } } } } },
  });
  return events.map((e) => ({
    id: e.id,
    occurredAt: e.occurredAt.toISOString(),
    sessionId: e.sessionId,
    sessionTitle: e.span.session.title ?? e.span.session.externalId,
    spanId: e.spanId,
    seq: e.span.seq,
    cellClass: e.cellClass,
    cellProvenance: e.cellProvenance,
    reason: e.reason,
    requester: e.requester,
    atomsAtRisk: Array.isArray(e.atomsAtRisk) ? e.atomsAtRisk.length : 0,
  }));
}

export interface RefusalDayCount {
  day: string;
  cellClass: EvidentialClass;
  cellProvenance: ProvenanceStatus;
  count: number;
}

/** Refusals per UTC day (timestamps are stored in UTC) and cell since a date, counted in the database. */
export async function refusalCountsByDay(filter: RefusalFilter & { since: Date }): Promise<RefusalDayCount[]> {
  const conditions = [Prisma.sql`project_id = ${filter.projectId}::uuid`, Prisma.sql`occurred_at >= ${filter.since}`];
  if (filter.sessionId) conditions.push(Prisma.sql`session_id = ${filter.sessionId}::uuid`);
  if (filter.cellClass) conditions.push(Prisma.sql`cell_class = ${filter.cellClass}::"EvidentialClass"`);
  if (filter.cellProvenance) conditions.push(Prisma.sql`cell_provenance = ${filter.cellProvenance}::"ProvenanceStatus"`);
  const rows = await db().$queryRaw<
    Array<{ day: string; cell_class: EvidentialClass; cell_provenance: ProvenanceStatus; count: bigint | number }>
  >`
    select to_char(occurred_at, 'YYYY-MM-DD') as day, cell_class::text as cell_class,
           cell_provenance::text as cell_provenance, count(*) as count
      from refusal_event
     where ${Prisma.join(conditions, " and ")}
     group by 1, 2, 3`;
  return rows.map((r) => ({ day: r.day, cellClass: r.cell_class, cellProvenance: r.cell_provenance, count: Number(r.count) }));
}
