/**
 * Assembles importer output. Importers add draft spans as they read; pairing can still change a
 * draft afterwards (an exit code arriving later) or drop it (a fallback made redundant), so seq
 * numbers, compaction seqs and missing times are settled only in `finish`.
 */
import type { SpanKind } from "@/lib/evidence/types";
import type { ImportFormat, ImportIssue, ImportResult, ImportedCompaction, ImportedSession, ImportedSpan } from "./types";
import { parseTimestamp } from "./text";

export interface DraftSpan {
  kind: SpanKind;
  role?: string;
  toolName?: string;
  toolInput?: unknown;
  exitCode?: number;
  cwd?: string;
  /** Undefined until finish when no record before it had a time. */
  occurredAt?: Date;
  body: Uint8Array;
  sourceLine: number;
  sourceId?: string;
  dropped?: boolean;
}

interface DraftCompaction {
  summary: DraftSpan;
  replaced: DraftSpan[];
}

export class SessionDraft {
  title?: string;
  cwd?: string;
  startedAt?: Date;
  private readonly spans: DraftSpan[] = [];
  private readonly compactions: DraftCompaction[] = [];
  /** Spans since the last compaction (or compact boundary): what the next one replaces by default. */
  private window: DraftSpan[] = [];

  constructor(readonly externalId: string) {}

  add(span: DraftSpan): DraftSpan {
    this.spans.push(span);
    this.window.push(span);
    return span;
  }

  /** Ends the current window (a compact boundary) and returns what it held. */
  cut(): DraftSpan[] {
    const held = this.window;
    this.window = [];
    return held;
  }

  /** Spans since the last compaction, without ending the window. */
  sinceLastCompaction(): readonly DraftSpan[] {
    return this.window;
  }

  /** Adds a SUMMARY span that replaced `replaced` (default: everything since the last compaction). */
  addSummary(span: Omit<DraftSpan, "kind">, replaced: DraftSpan[] = this.window): DraftSpan {
    const summary: DraftSpan = { ...span, kind: "SUMMARY" };
    const taken = [...replaced];
    this.spans.push(summary);
    this.compactions.push({ summary, replaced: taken });
    this.window = [];
    return summary;
  }

  get isEmpty(): boolean {
    return this.spans.every((s) => s.dropped);
  }

  finish(runtime: ImportFormat): ImportedSession {
    const kept = this.spans.filter((s) => !s.dropped);
    const seqOf = new Map<DraftSpan, number>();
    kept.forEach((s, i) => seqOf.set(s, i));
    const times = fillTimes(kept);
    const spans: ImportedSpan[] = kept.map((s, seq) => {
      const out: ImportedSpan = { seq, kind: s.kind, occurredAt: times[seq]!, body: s.body, sourceLine: s.sourceLine };
      if (s.role !== undefined) out.role = s.role;
      if (s.toolName !== undefined) out.toolName = s.toolName;
      if (s.toolInput !== undefined) out.toolInput = s.toolInput;
      if (s.exitCode !== undefined) out.exitCode = s.exitCode;
      if (s.cwd !== undefined) out.cwd = s.cwd;
      if (s.sourceId !== undefined) out.sourceId = s.sourceId;
      return out;
    });
    const compactions: ImportedCompaction[] = [];
    for (const c of this.compactions) {
      const summarySeq = seqOf.get(c.summary);
      if (summarySeq === undefined) continue;
      const replacedSeqs = [...new Set(c.replaced.map((s) => seqOf.get(s)).filter((n): n is number => n !== undefined))]
        .filter((n) => n !== summarySeq)
        .sort((a, b) => a - b);
      compactions.push({ summarySeq, replacedSeqs, occurredAt: times[summarySeq]! });
    }
    const session: ImportedSession = { externalId: this.externalId, runtime, spans, compactions };
    if (this.title !== undefined) session.title = this.title;
    if (this.cwd !== undefined) session.cwd = this.cwd;
    const startedAt = this.startedAt ?? spans[0]?.occurredAt;
    if (startedAt !== undefined) session.startedAt = startedAt;
    return session;
  }
}

/** Spans with no time yet take the next known one (only records before any timed record lack one). */
function fillTimes(spans: DraftSpan[]): Date[] {
  const out: Date[] = new Array<Date>(spans.length);
  let next: Date | undefined;
  for (let i = spans.length - 1; i >= 0; i--) {
    next = spans[i]!.occurredAt ?? next;
    out[i] = spans[i]!.occurredAt ?? next ?? new Date(0);
  }
  return out;
}

/** Sessions by external id, in the order they first appear, plus the file's issues. */
export class ImportCollector {
  readonly issues: ImportIssue[] = [];
  private readonly sessions = new Map<string, SessionDraft>();

  constructor(readonly format: ImportFormat) {}

  issue(line: number, message: string): void {
    this.issues.push({ line, message });
  }

  session(externalId: string): SessionDraft {
    let draft = this.sessions.get(externalId);
    if (!draft) {
      draft = new SessionDraft(externalId);
      this.sessions.set(externalId, draft);
    }
    return draft;
  }

  has(externalId: string): boolean {
    return this.sessions.has(externalId);
  }

  /** Sessions with no spans (a file holding only titles or metadata) are left out. */
  result(): ImportResult {
    const sessions = [...this.sessions.values()].filter((d) => !d.isEmpty).map((d) => d.finish(this.format));
    const issues = [...this.issues].sort((a, b) => a.line - b.line);
    return { format: this.format, sessions, issues };
  }
}

/**
 * Record times with the rule every importer follows: the record's own time, else the previous
 * record's; a record before any timed one is reported and later takes the next known time.
 */
export class Clock {
  private last: Date | undefined;

  constructor(private readonly collector: ImportCollector) {}

  at(line: number, raw: unknown, parse: (v: unknown) => Date | undefined = parseTimestamp): Date | undefined {
    const own = parse(raw);
    if (own) {
      this.last = own;
      return own;
    }
    if (this.last) return this.last;
    this.collector.issue(line, raw === undefined ? "no timestamp and no earlier one; using the next known time" : `unreadable timestamp ${JSON.stringify(raw)} and no earlier one; using the next known time`);
    return undefined;
  }

  /** Records a time without attributing it to a span (metadata records still move the clock). */
  see(raw: unknown, parse: (v: unknown) => Date | undefined = parseTimestamp): void {
    const own = parse(raw);
    if (own) this.last = own;
  }
}
