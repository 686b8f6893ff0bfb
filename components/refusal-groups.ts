/**
 * The refusals list as people read it: one row per gate request (a compaction asked of the gate),
 * its reason said once, its refused spans beneath it. Pure and tested; the rows come in the list's
 * order and a group takes the place of its first row. A refusal whose request is not known (no
 * gate decision recorded for it) is a group of its own.
 */

export interface GroupableRefusal {
  id: string;
  occurredAt: string;
  sessionId: string;
  sessionTitle: string;
  spanId: string;
  seq: number | null;
  cellClass: string;
  cellProvenance: string;
  reason: string;
  requester: string;
  atomsAtRisk: number;
  /** The gate request (reclamation) the refusal was decided in; null when not recorded. */
  requestId: string | null;
}

export interface RefusalGroup<R extends GroupableRefusal = GroupableRefusal> {
  /** The request's id, or the lone refusal's. */
  key: string;
  /** The group's first refusal in the list's order: its time, session and requester stand for the group. */
  first: R;
  refusals: R[];
  /** The distinct reasons, in order of first appearance: usually one. */
  reasons: string[];
  /** The distinct cells ("SIDE_EFFECTING:EXPIRING"), in order of first appearance. */
  cells: Array<{ cellClass: string; cellProvenance: string }>;
  atomsAtRisk: number;
}

export function groupRefusals<R extends GroupableRefusal>(rows: readonly R[]): RefusalGroup<R>[] {
  const groups = new Map<string, RefusalGroup<R>>();
  for (const row of rows) {
    const key = row.requestId ? `${row.sessionId}/${row.requestId}` : `refusal/${row.id}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, first: row, refusals: [], reasons: [], cells: [], atomsAtRisk: 0 };
      groups.set(key, group);
    }
    group.refusals.push(row);
    group.atomsAtRisk += row.atomsAtRisk;
    if (!group.reasons.includes(row.reason)) group.reasons.push(row.reason);
    if (!group.cells.some((c) => c.cellClass === row.cellClass && c.cellProvenance === row.cellProvenance))
      group.cells.push({ cellClass: row.cellClass, cellProvenance: row.cellProvenance });
  }
  for (const group of groups.values()) group.refusals.sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  return [...groups.values()];
}
