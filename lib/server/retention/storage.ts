/**
 * What retention costs today: bytes of originals held, per evidential class, per runtime, per
 * session (the largest), and per day received over the last weeks. Read from span_storage_count,
 * the held originals' counts kept by triggers on span (prisma/DERIVED_STATE.md): a few rows per
 * session rather than every held span of the project, which at a million spans took most of a
 * second on a page that polls. storage.db.test.ts holds these figures to a scan of the spans.
 */
import { db } from "@/lib/db/client";
import { EVIDENTIAL_CLASSES, type EvidentialClass } from "@/lib/evidence/types";

export interface StorageFigures {
  total: { originals: number; bytes: number };
  byClass: Record<EvidentialClass, { originals: number; bytes: number }>;
  byRuntime: Array<{ runtime: string; originals: number; bytes: number }>;
  /** The sessions holding the most bytes, largest first. */
  bySession: Array<{ sessionId: string; title: string; runtime: string; originals: number; bytes: number }>;
  /** Bytes of originals received per UTC day (still held), oldest first, every day of the window. */
  growth: Array<{ date: string; originals: number; bytes: number }>;
}

const DAY_MS = 86_400_000;
const num = (v: bigint | number | null) => Number(v ?? 0);
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

// Counters fall to zero and stay (never below): a group with no held original is no figure.
export async function storageFigures(projectId: string, now = new Date(), days = 30, topSessions = 20): Promise<StorageFigures> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
  const [perRuntimeClass, sessions, growth] = await Promise.all([
    db().$queryRaw<Array<{ runtime: string; class: string; n: bigint; bytes: bigint }>>`
      select se.runtime, c.class::text as class, sum(c.originals)::bigint as n, sum(c.bytes)::bigint as bytes
        from session se join span_storage_count c on c.session_id = se.id
       where se.project_id = ${projectId}::uuid
       group by se.runtime, c.class
      having sum(c.originals) > 0`,
    topSessions > 0
      ? db().$queryRaw<Array<{ session_id: string; title: string; runtime: string; n: bigint; bytes: bigint }>>`
          select se.id::text as session_id, coalesce(se.title, se.external_id) as title, se.runtime,
                 sum(c.originals)::bigint as n, sum(c.bytes)::bigint as bytes
            from session se join span_storage_count c on c.session_id = se.id
           where se.project_id = ${projectId}::uuid
           group by se.id
          having sum(c.originals) > 0
           order by bytes desc, se.id
           limit ${topSessions}`
      : [],
    days > 0
      ? db().$queryRaw<Array<{ day: string; n: bigint; bytes: bigint }>>`
          select to_char(c.day, 'YYYY-MM-DD') as day, sum(c.originals)::bigint as n, sum(c.bytes)::bigint as bytes
            from session se join span_storage_count c on c.session_id = se.id
           where se.project_id = ${projectId}::uuid and c.day >= ${isoDay(since)}::date
           group by c.day`
      : [],
  ]);
  const byClass = Object.fromEntries(EVIDENTIAL_CLASSES.map((c) => [c, { originals: 0, bytes: 0 }])) as StorageFigures["byClass"];
  const runtimes = new Map<string, { originals: number; bytes: number }>();
  const total = { originals: 0, bytes: 0 };
  for (const r of perRuntimeClass) {
    const [n, bytes] = [num(r.n), num(r.bytes)];
    const cls = byClass[r.class as EvidentialClass];
    cls.originals += n;
    cls.bytes += bytes;
    total.originals += n;
    total.bytes += bytes;
    const rt = runtimes.get(r.runtime) ?? { originals: 0, bytes: 0 };
    rt.originals += n;
    rt.bytes += bytes;
    runtimes.set(r.runtime, rt);
  }
  const perDay = new Map(growth.map((g) => [g.day, g]));
  return {
    total,
    byClass,
    byRuntime: [...runtimes]
      .map(([runtime, v]) => ({ runtime, ...v }))
      .sort((a, b) => b.bytes - a.bytes || a.runtime.localeCompare(b.runtime)),
    bySession: sessions.map((r) => ({
      sessionId: r.session_id,
      title: r.title,
      runtime: r.runtime,
      originals: num(r.n),
      bytes: num(r.bytes),
    })),
    growth: Array.from({ length: Math.max(days, 0) }, (_, i) => {
      const date = isoDay(new Date(since.getTime() + i * DAY_MS));
      const g = perDay.get(date);
      return { date, originals: num(g?.n ?? 0), bytes: num(g?.bytes ?? 0) };
    }),
  };
}
