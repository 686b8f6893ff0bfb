/**
 * SQL fragments that judge stored rows under a retention policy without loading them: when a held
 * original expires under the policy, and what the gate would decide in a recorded cell.
 */
import { Prisma } from "@/lib/db/generated/client";
import type { RetentionPolicy } from "@/lib/evidence/types";
import { GRID_CODES } from "@/lib/server/provenance";

/**
 * When the held, unpinned original of span `s` expires under `policy`, given that its stored
 * expiry follows `current`: moved by the difference of the two TTLs of its class (saving a policy
 * moves it the same way). Null for pinned originals and for originals no longer held.
 */
export function expiryUnder(policy: RetentionPolicy, current: RetentionPolicy): Prisma.Sql {
  const d = (c: keyof RetentionPolicy["ttlDays"]) => policy.ttlDays[c] - current.ttlDays[c];
  return Prisma.sql`(s.original_expires_at + make_interval(days => (case s.class when 'NARRATIVE' then ${d("NARRATIVE")}::int
      when 'STRUCTURED' then ${d("STRUCTURED")}::int else ${d("SIDE_EFFECTING")}::int end)))`;
}

/**
 * The verdict the gate would give recorded decision `d` (on span `s`) under `policy`: the cell's
 * class as recorded; its provenance judged again where it rests on the original's expiry (DURABLE
 * or EXPIRING, the original still held, by the grid's rule: custodian_grid_code, written from
 * STATUS_RULE in lib/server/provenance); LOST and NONE cells stay as they were. A refusing cell
 * keeps an honest reclamation honest; a reclamation made in a durable cell is refused in an
 * expiring one, since whether its summary could name its omissions was never asked. `s` is
 * joined only where the original is held (null otherwise), so that it reads span_held_idx alone.
 */
export function replayedVerdict(policy: RetentionPolicy, current: RetentionPolicy): Prisma.Sql {
  const provenance = Prisma.sql`(case
      when d.cell_provenance in ('LOST', 'NONE') then d.cell_provenance::text
      when s.id is null then d.cell_provenance::text
      when custodian_grid_code(true, 'HELD', ${expiryUnder(policy, current)}, s.occurred_at, ${policy.evidenceHorizonDays}::int) = ${GRID_CODES.EXPIRING}
        then 'EXPIRING'
      else 'DURABLE' end)`;
  return Prisma.sql`(case
      when d.cell_class = 'NARRATIVE' then 'RECLAIM'
      when ${provenance} = 'DURABLE' then 'RECLAIM'
      when d.cell_class = 'STRUCTURED' and not ${policy.evidenceWorkloads} then 'RECLAIM'
      when d.verdict = 'RECLAIM_HONEST' then 'RECLAIM_HONEST'
      else 'REFUSE' end)`;
}
