/**
 * Provenance status of a session's spans, derived now (docs/design.md: never stored stale), from the
 * facts triggers keep on each span row (its original's state and expiry, the summary that replaced
 * it). The grid reads counters that triggers keep per class, replacing summary and clock-free
 * status, corrected for the spans whose TTL has passed since; summaries' statuses (the weakest of
 * what they rest on) follow from those groups. The definition is spanStatuses in
 * lib/evidence/span-statuses.ts; read-paths.db.test.ts holds these queries to it.
 */
import type { DbTx } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { provenanceStatus, weakestStatus } from "@/lib/evidence/provenance";
import { spanStatuses, type StatusLink, type StatusSpan } from "@/lib/evidence/span-statuses";
import type { EvidentialClass, ProvenanceStatus, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import {
  GRID_CODES,
  heldPastTtl,
  originalFromSpan,
  STATUS_CODES,
  type OriginalStateValue,
  type StatusParams,
} from "./status-sql";

export interface SpanStatus {
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  transcriptState: TranscriptState;
  provenance: ProvenanceStatus;
  occurredAt: Date;
}

export type GridCounts = Record<EvidentialClass, Record<ProvenanceStatus, number>>;

export function emptyGrid(): GridCounts {
  const row = () => ({ DURABLE: 0, EXPIRING: 0, LOST: 0, NONE: 0 });
  return { NARRATIVE: row(), STRUCTURED: row(), SIDE_EFFECTING: row() };
}

export function countGrid(statuses: Iterable<Pick<SpanStatus, "class" | "provenance">>, into = emptyGrid()): GridCounts {
  for (const s of statuses) into[s.class][s.provenance] += 1;
  return into;
}

export interface SessionGrid {
  grid: GridCounts;
  /** Every summary of the session with its status. */
  summaryStatuses: Map<string, ProvenanceStatus>;
}

interface GroupRow {
  class: EvidentialClass;
  replacing: string | null;
  /** Index into STATUS_CODES. */
  code: number;
  n: number;
}

/** Spans no summary replaced are counted under the nil uuid in span_grid_count. */
const NOT_REPLACED = "00000000-0000-0000-0000-000000000000";
const LOST_CODE = GRID_CODES.LOST;

/**
 * The grid's queries: the session's counters of spans (not summaries) per class, replacing summary
 * and clock-free status (span_grid_count, kept by triggers); those of its spans whose TTL has
 * passed and whose original is still held (span_held_expiry_idx), which the clock has moved to
 * LOST; its summaries; and the summaries with a link that carries no pointer.
 */
export function gridQueries(sessionId: string, params: StatusParams) {
  return {
    counts: Prisma.sql`
      select class::text as class, nullif(replacing_summary_id, ${NOT_REPLACED}::uuid)::text as replacing, code::int as code, n
        from span_grid_count
       where session_id = ${sessionId}::uuid and n <> 0`,
    expired: Prisma.sql`
      select class::text as class, replacing_summary_id::text as replacing,
             custodian_grid_code(has_pointer, original_state, original_expires_at, occurred_at, ${params.horizonDays}::int)::int as code,
             count(*)::int as n
        from span
       where session_id = ${sessionId}::uuid and kind <> 'SUMMARY' and ${heldPastTtl("", params.now)}
       group by 1, 2, 3`,
    summaries: Prisma.sql`
      select id::text as id, class::text as class, replacing_summary_id::text as replacing
        from span where session_id = ${sessionId}::uuid and kind = 'SUMMARY'`,
    unpointed: Prisma.sql`
      select distinct summary_span_id::text as id from summary_link where session_id = ${sessionId}::uuid and pointer_sha256 is null`,
  };
}

/**
 * The counters as they stand at the clock: each span past its TTL moves from the status its counter
 * assumed to LOST. Codes as STATUS_CODES; groups left empty are dropped.
 */
function groupsAtClock(counts: readonly GroupRow[], expired: readonly GroupRow[]): GroupRow[] {
  const key = (g: Pick<GroupRow, "class" | "replacing" | "code">) => `${g.class}|${g.replacing ?? ""}|${g.code}`;
  const groups = new Map<string, GroupRow>();
  const add = (g: GroupRow, n: number) => {
    const k = key(g);
    const known = groups.get(k);
    if (known) known.n += n;
    else groups.set(k, { ...g, n });
  };
  for (const c of counts) add({ ...c, code: c.code === GRID_CODES.DURABLE_ALWAYS ? GRID_CODES.DURABLE : c.code }, c.n);
  for (const e of expired) {
    add(e, -e.n);
    add({ ...e, code: LOST_CODE }, e.n);
  }
  return [...groups.values()].filter((g) => g.n !== 0);
}

/** The session's grid counts and its summaries' statuses. */
export async function sessionGrid(tx: DbTx, sessionId: string, policy: RetentionPolicy, now: Date): Promise<SessionGrid> {
  const q = gridQueries(sessionId, { now, horizonDays: policy.evidenceHorizonDays });
  const [counts, expired, summaries, unpointed] = await Promise.all([
    tx.$queryRaw<GroupRow[]>(q.counts),
    tx.$queryRaw<GroupRow[]>(q.expired),
    tx.$queryRaw<Array<{ id: string; class: EvidentialClass; replacing: string | null }>>(q.summaries),
    tx.$queryRaw<Array<{ id: string }>>(q.unpointed),
  ]);

  const grid = emptyGrid();
  // Per replacing summary, the weakest status among the spans it replaced directly (codes run
  // from the weakest, NONE, to the strongest, DURABLE).
  const weakest = new Map<string, number>();
  for (const g of groupsAtClock(counts, expired)) {
    grid[g.class][STATUS_CODES[g.code]!] += g.n;
    if (g.replacing) weakest.set(g.replacing, Math.min(weakest.get(g.replacing) ?? 3, g.code));
  }
  const weakestDirect = new Map<string, ProvenanceStatus>([...weakest].map(([id, code]) => [id, STATUS_CODES[code]!]));
  const summaryStatuses = resolveSummaryStatuses(summaries, weakestDirect, new Set(unpointed.map((u) => u.id)));
  for (const s of summaries) grid[s.class][summaryStatuses.get(s.id)!] += 1;
  return { grid, summaryStatuses };
}

/**
 * Each summary's status from what its links lead to: the weakest of its non-summary children
 * (`direct`) and of its summary children, NONE if any link has no pointer, if it has no links, or
 * if it sits on a cycle of links, as spanStatuses decides.
 */
export function resolveSummaryStatuses(
  summaries: ReadonlyArray<{ id: string; replacing: string | null }>,
  direct: ReadonlyMap<string, ProvenanceStatus>,
  unpointed: ReadonlySet<string>,
): Map<string, ProvenanceStatus> {
  const childSummaries = new Map<string, string[]>();
  for (const s of summaries) {
    if (!s.replacing) continue;
    const list = childSummaries.get(s.replacing);
    if (list) list.push(s.id);
    else childSummaries.set(s.replacing, [s.id]);
  }
  const memo = new Map<string, ProvenanceStatus>();
  const statusOf = (id: string, visiting: Set<string>): ProvenanceStatus => {
    const known = memo.get(id);
    if (known) return known;
    if (visiting.has(id)) return "NONE";
    const kids = childSummaries.get(id) ?? [];
    const own = direct.get(id);
    let status: ProvenanceStatus;
    if (unpointed.has(id) || (kids.length === 0 && own === undefined)) {
      status = "NONE";
    } else {
      visiting.add(id);
      const parts: ProvenanceStatus[] = own === undefined ? [] : [own];
      for (const kid of kids) parts.push(statusOf(kid, visiting));
      visiting.delete(id);
      status = weakestStatus(parts);
    }
    memo.set(id, status);
    return status;
  };
  const out = new Map<string, ProvenanceStatus>();
  for (const s of summaries) out.set(s.id, statusOf(s.id, new Set()));
  return out;
}

interface SpanRowFacts {
  id: string;
  seq: number | null;
  kind: SpanKind;
  class: EvidentialClass;
  transcript_state: TranscriptState;
  occurred_at: Date;
  has_pointer: boolean;
  original_state: OriginalStateValue;
  original_expires_at: Date | null;
}

export const SPAN_FACTS = Prisma.sql`id::text as id, seq, kind::text as kind, class::text as class, transcript_state::text as transcript_state,
  occurred_at, has_pointer, original_state::text as original_state, original_expires_at`;

export function toSpanStatus(
  row: SpanRowFacts,
  policy: RetentionPolicy,
  now: Date,
  summaryStatuses: ReadonlyMap<string, ProvenanceStatus>,
): SpanStatus {
  const provenance =
    row.kind === "SUMMARY"
      ? (summaryStatuses.get(row.id) ?? "NONE")
      : provenanceStatus(
          {
            hasPointer: row.has_pointer,
            original: originalFromSpan(row.original_state, row.original_expires_at),
            occurredAt: row.occurred_at,
          },
          policy,
          now,
        );
  return {
    id: row.id,
    seq: row.seq,
    kind: row.kind,
    class: row.class,
    transcriptState: row.transcript_state,
    provenance,
    occurredAt: row.occurred_at,
  };
}

/** Every span of a session with its status under its project's policy, in transcript order (small sessions, tests and exports). */
export async function sessionSpanStatuses(
  tx: DbTx,
  policy: RetentionPolicy,
  sessionId: string,
  now: Date,
): Promise<SpanStatus[]> {
  const grid = await sessionGrid(tx, sessionId, policy, now);
  const rows = await tx.$queryRaw<SpanRowFacts[]>`
    select ${SPAN_FACTS} from span where session_id = ${sessionId}::uuid order by seq asc nulls last, occurred_at asc, id asc`;
  return rows.map((row) => toSpanStatus(row, policy, now, grid.summaryStatuses));
}

/**
 * Statuses of some spans of a session and of everything their summaries rest on, from the lineage
 * below them only (not the whole session): what one span's page and one blocker need.
 */
export async function lineageStatuses(
  tx: DbTx,
  sessionId: string,
  spanIds: string[],
  policy: RetentionPolicy,
  now: Date,
): Promise<{ statuses: Map<string, ProvenanceStatus>; spans: Map<string, SpanRowFacts>; links: StatusLink[] }> {
  if (spanIds.length === 0) return { statuses: new Map(), spans: new Map(), links: [] };
  const links = await tx.$queryRaw<Array<{ summary_id: string; replaced_id: string; pointed: boolean }>>`
    with recursive down(summary_id, replaced_id, pointed) as (
      select summary_span_id, replaced_span_id, pointer_sha256 is not null
        from summary_link where session_id = ${sessionId}::uuid and summary_span_id = any(${spanIds}::uuid[])
      union
      select l.summary_span_id, l.replaced_span_id, l.pointer_sha256 is not null
        from summary_link l join down d on l.summary_span_id = d.replaced_id
       where l.session_id = ${sessionId}::uuid)
    select summary_id::text as summary_id, replaced_id::text as replaced_id, pointed from down`;
  const ids = [...new Set([...spanIds, ...links.map((l) => l.replaced_id)])];
  const rows = await tx.$queryRaw<SpanRowFacts[]>`
    select ${SPAN_FACTS} from span where session_id = ${sessionId}::uuid and id = any(${ids}::uuid[])`;
  const statusLinks: StatusLink[] = links.map((l) => ({
    summaryId: l.summary_id,
    replacedId: l.replaced_id,
    pointed: l.pointed,
  }));
  const statusSpans: StatusSpan[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    hasPointer: r.has_pointer,
    original: originalFromSpan(r.original_state, r.original_expires_at),
    occurredAt: r.occurred_at,
  }));
  return {
    statuses: spanStatuses(statusSpans, statusLinks, policy, now),
    spans: new Map(rows.map((r) => [r.id, r])),
    links: statusLinks,
  };
}

/** One span's status. */
export async function spanStatusOf(
  tx: DbTx,
  sessionId: string,
  spanId: string,
  policy: RetentionPolicy,
  now: Date,
): Promise<ProvenanceStatus> {
  const { statuses } = await lineageStatuses(tx, sessionId, [spanId], policy, now);
  return statuses.get(spanId) ?? "NONE";
}

export type { SpanRowFacts };
