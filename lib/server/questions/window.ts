/**
 * What an answer keeps of long lists: the first items in the engine's order, up to a limit, with
 * an exact count of all of them, and the tally of attempts its citations make, counted as they
 * pass. Memory stays bounded however many spans match or block.
 */
import { TOOL_OUTCOMES, type ToolOutcome } from "@/lib/evidence/outcomes";
import type { Citation } from "@/lib/evidence/questions";

/**
 * Citations, and blockers, an answer keeps by default: the first page the API presents of each
 * list (DEFAULT_PAGE_ROWS), and at most what stored verdicts hold per session; counts are exact. A
 * page past it is asked keeping as far as that page reaches (present.ts, windowFor). Each kept blocker is
 * read, judged and carried: at 10,000 a whole-project question over the scale project spent a
 * fifth of its CPU on blockers past the first page (70 ms of 490 in the database, 33 of 222 in the
 * server, p50).
 */
export const ANSWER_WINDOW = 1_000;

/** An item with where it sits in the engine's order over the scope. */
export interface Placed<T> {
  /** The session's place in the scope. */
  session: number;
  seq: number;
  /** 0 for a span at its own seq; 1 for a summary sitting after the span whose seq it takes. */
  rank: number;
  occurredAt: number;
  id: string;
  /** Its place among the items of one span. */
  index: number;
  value: T;
}

export function comparePlaced(a: Placed<unknown>, b: Placed<unknown>): number {
  return (
    a.session - b.session ||
    a.seq - b.seq ||
    a.rank - b.rank ||
    a.occurredAt - b.occurredAt ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
    a.index - b.index
  );
}

/**
 * The first `limit` items offered, in the engine's order, whatever order they come in (a heap of
 * the kept ones, its root the last of them), and per session how many were offered.
 */
export class FirstItems<T> {
  private readonly heap: Array<Placed<T>> = [];
  readonly counts = new Map<number, number>();

  constructor(readonly limit: number) {}

  offer(item: Placed<T>): void {
    this.counts.set(item.session, (this.counts.get(item.session) ?? 0) + 1);
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(item);
      this.up(heap.length - 1);
      return;
    }
    if (this.limit === 0 || comparePlaced(item, heap[0]!) >= 0) return;
    heap[0] = item;
    this.down(0);
  }

  /** Counts `n` more items of a session that were never offered: ones known to fall past the window. */
  countUnoffered(session: number, n: number): void {
    if (n > 0) this.counts.set(session, (this.counts.get(session) ?? 0) + n);
  }

  /** The kept items in order. */
  sorted(): Array<Placed<T>> {
    return [...this.heap].sort(comparePlaced);
  }

  private up(i: number) {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (comparePlaced(heap[i]!, heap[parent]!) <= 0) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private down(i: number) {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && comparePlaced(heap[l]!, heap[top]!) > 0) top = l;
      if (r < heap.length && comparePlaced(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  }
}

/**
 * The tally of attempts (tallyOutcomes in the engine) of every citation of one session, fed in
 * any order: per cited span with an outcome, a number packing its seq, whether it is a call or a
 * result, and its outcome (a few bytes a span, not the citation).
 */
export class OutcomeTally {
  private readonly bySession = new Map<string, number[]>();

  add(c: Citation): void {
    if (c.outcome === undefined) return;
    const kind = c.spanKind === "TOOL_CALL" ? 1 : c.spanKind === "TOOL_RESULT" ? 2 : 0;
    const packed = (c.seq * 4 + kind) * 8 + TOOL_OUTCOMES.indexOf(c.outcome);
    let list = this.bySession.get(c.sessionId);
    if (!list) this.bySession.set(c.sessionId, (list = []));
    list.push(packed);
  }

  /** The tally of one session's citations. */
  of(sessionId: string): Partial<Record<ToolOutcome, number>> {
    const list = (this.bySession.get(sessionId) ?? []).sort((a, b) => a - b);
    const tally: Partial<Record<ToolOutcome, number>> = {};
    let lastSeq = Number.NaN;
    let lastWasCall = false;
    for (const packed of list) {
      const seq = Math.floor(packed / 32);
      if (seq === lastSeq) continue; // the same span cited again
      const kind = Math.floor(packed / 8) % 4;
      const outcome = TOOL_OUTCOMES[packed % 8]!;
      // A result cited right after its cited call is the same attempt.
      if (!(kind === 2 && lastWasCall && seq === lastSeq + 1)) tally[outcome] = (tally[outcome] ?? 0) + 1;
      lastWasCall = kind === 1;
      lastSeq = seq;
    }
    return tally;
  }
}

/** Tallies added up, in the order the engine lists outcomes. */
export function addTallies(tallies: Iterable<Partial<Record<ToolOutcome, number>>>): Partial<Record<ToolOutcome, number>> {
  const sum: Partial<Record<ToolOutcome, number>> = {};
  for (const t of tallies) for (const [o, n] of Object.entries(t) as Array<[ToolOutcome, number]>) sum[o] = (sum[o] ?? 0) + n;
  return Object.fromEntries(TOOL_OUTCOMES.filter((o) => sum[o]).map((o) => [o, sum[o]]));
}
