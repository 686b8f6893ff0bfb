/**
 * What retention costs today: bytes of originals held, per evidential class, per runtime, per
 * session (the largest), and per day received over the last weeks. Read from the span rows' copied
 * facts (original_state, byte_length), aggregated in the database.
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

const num = (v: bigint | number | null) => Number(v ?? 0);

export async function storageFigures(projectId: string, now = new Date(), days = 30, topSessions = 20): Promise<StorageFigures> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * 86_400_000);
  const [perSession, growth] = await Promise.all([
    db().$queryRaw<Array<{ session_id: string; title: string; runtime: string; class: string; n: bigint; bytes: bigint }>>`
      select se.id::text as session_id, coalesce(se.title, se.external_id) as title, se.runtime, s.class::text as class,
             count(*) as n, sum(s.byte_length)::bigint as bytes
        from session se join span s on s.session_id = se.id
       where se.project_id = ${projectId}::uuid and s.original_state = 'HELD'
       group by se.id, s.class`,
    db().$queryRaw<Array<{ day: string; n: bigint; bytes: bigint }>>`
      select to_char(date_trunc('day', s.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, count(*) as n,
             sum(s.byte_length)::bigint as bytes
        from session se join span s on s.session_id = se.id
       where se.project_id = ${projectId}::uuid and s.original_state = 'HELD' and s.created_at >= ${since}
       group by 1`,
  ]);
  const byClass = Object.fromEntries(EVIDENTIAL_CLASSES.map((c) => [c, { originals: 0, bytes: 0 }])) as StorageFigures["byClass"];
  const runtimes = new Map<string, { originals: number; bytes: number }>();
  const sessions = new Map<string, StorageFigures["bySession"][number]>();
  const total = { originals: 0, bytes: 0 };
  for (const r of perSession) {
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
    const se = sessions.get(r.session_id) ?? {
      sessionId: r.session_id,
      title: r.title,
      runtime: r.runtime,
      originals: 0,
      bytes: 0,
    };
    se.originals += n;
    se.bytes += bytes;
    sessions.set(r.session_id, se);
  }
  const perDay = new Map(growth.map((g) => [g.day, g]));
  return {
    total,
    byClass,
    byRuntime: [...runtimes].map(([runtime, v]) => ({ runtime, ...v })).sort((a, b) => b.bytes - a.bytes),
    bySession: [...sessions.values()].sort((a, b) => b.bytes - a.bytes).slice(0, topSessions),
    growth: Array.from({ length: days }, (_, i) => {
      const date = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const g = perDay.get(date);
      return { date, originals: num(g?.n ?? 0), bytes: num(g?.bytes ?? 0) };
    }),
  };
}
