/**
 * The gate's recorded decisions (not dry runs) of the last REPLAY_DAYS days, replayed under the
 * current policy and a proposal in SQL: how many each refuses, and the refusals gained and lost.
 */
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { DAY_MS } from "@/lib/evidence/policy";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { replayedVerdict } from "./policy-sql";

/** How far back recorded gate decisions are replayed. */
export const REPLAY_DAYS = 30;

const num = (v: bigint | number | null | undefined) => Number(v ?? 0);

export async function replayDecisions(projectId: string, current: RetentionPolicy, proposed: RetentionPolicy, now: Date) {
  const [row] = await db().$queryRaw<
    Array<{ decisions: bigint; recorded: bigint; current: bigint; proposed: bigint; gained: bigint; lost: bigint }>
  >(replaySql(projectId, current, proposed, now));
  return {
    decisions: num(row?.decisions),
    recorded: num(row?.recorded),
    current: num(row?.current),
    proposed: num(row?.proposed),
    gained: num(row?.gained),
    lost: num(row?.lost),
  };
}

export function replaySql(projectId: string, current: RetentionPolicy, proposed: RetentionPolicy, now: Date): Prisma.Sql {
  const since = new Date(now.getTime() - REPLAY_DAYS * DAY_MS);
  return Prisma.sql`
    with replay as (
      select d.verdict::text as recorded, ${replayedVerdict(current, current)} as cur, ${replayedVerdict(proposed, current)} as prop
        from gate_decision d
        join session se on se.id = d.session_id
        -- Only a held original's expiry can move a verdict, and only in a DURABLE or EXPIRING cell of
        -- an evidence-bearing class: those decisions find their span among the held originals (an
        -- index-only scan of span_held_idx, an eighth of the span table); the rest keep their cell.
        left join span s on s.session_id = d.session_id and s.id = d.span_id and s.original_state = 'HELD'
             and d.cell_class <> 'NARRATIVE' and d.cell_provenance in ('DURABLE', 'EXPIRING')
       where se.project_id = ${projectId}::uuid and not d.dry_run and d.decided_at >= ${since} and d.decided_at <= ${now})
    select count(*) as decisions, count(*) filter (where recorded = 'REFUSE') as recorded,
           count(*) filter (where cur = 'REFUSE') as current, count(*) filter (where prop = 'REFUSE') as proposed,
           count(*) filter (where prop = 'REFUSE' and cur <> 'REFUSE') as gained,
           count(*) filter (where cur = 'REFUSE' and prop <> 'REFUSE') as lost
      from replay`;
}
