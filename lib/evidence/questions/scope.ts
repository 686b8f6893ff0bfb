/**
 * What a question looks at: sessions (optionally a seq range or chosen spans) and a time range,
 * and the seq gaps that make a proof of absence impossible.
 */

export interface ScopeSession {
  id: string;
  /** The session's working directory, for "wrote outside the working directory". */
  cwd?: string;
  /**
   * Inclusive seq range in scope. Also what the session is known to contain: when given, missing
   * seqs at either end are gaps too (without it only holes between the seqs present are).
   */
  seqFrom?: number;
  seqTo?: number;
  /** Only these spans. An explicit pick is not checked for seq gaps: it is not meant to be contiguous. */
  spanIds?: string[];
  /** Records the session's import skipped: they make the session incomplete. */
  skippedRecords?: Array<{ line: number; reason: string }>;
}

export interface QuestionScope {
  sessions: ScopeSession[];
  /** Inclusive start of the time range; spans without `occurredAt` are always in range. */
  from?: Date;
  /** Exclusive end of the time range. */
  to?: Date;
}

/** Seqs `fromSeq..toSeq` (inclusive) of a session are missing. */
export interface SeqGap {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
}

interface SeqOnly {
  seq: number;
}

/**
 * Missing seqs among a session's spans within its declared range. Computed before the time
 * filter: a span outside the time range is not missing, but one never received is.
 */
export function seqGaps(session: ScopeSession, spans: readonly SeqOnly[]): SeqGap[] {
  if (session.spanIds) return [];
  const seqs = [...new Set(spans.map((s) => s.seq))].filter((s) => inSeqRange(session, s)).sort((a, b) => a - b);
  const first = session.seqFrom ?? seqs[0];
  const last = session.seqTo ?? seqs[seqs.length - 1];
  if (first === undefined || last === undefined || last < first) return [];
  const gaps: SeqGap[] = [];
  let expected = first;
  for (const s of seqs) {
    if (s > expected) gaps.push({ sessionId: session.id, fromSeq: expected, toSeq: s - 1 });
    expected = s + 1;
  }
  if (expected <= last) gaps.push({ sessionId: session.id, fromSeq: expected, toSeq: last });
  return gaps;
}

export function inSeqRange(session: ScopeSession, seq: number): boolean {
  return (session.seqFrom === undefined || seq >= session.seqFrom) && (session.seqTo === undefined || seq <= session.seqTo);
}

export function inTimeRange(scope: QuestionScope, occurredAt: Date | undefined): boolean {
  if (occurredAt === undefined) return true;
  const t = occurredAt.getTime();
  return (scope.from === undefined || t >= scope.from.getTime()) && (scope.to === undefined || t < scope.to.getTime());
}
