/**
 * Assembles importer output. Importers add draft spans as they read; pairing can still change a
 * draft afterwards (an exit code arriving later) or drop it (a fallback made redundant), so seq
 * numbers, compaction seqs and missing times are settled only in `finish`.
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { SpanKind } from "@/lib/evidence/types";
import type {
  ImportFormat,
  ImportIssue,
  ImportRecords,
  ImportResult,
  ImportedCompaction,
  ImportedSession,
  ImportedSpan,
} from "./types";
import { parseTimestamp } from "./text";

export interface DraftSpan {
  kind: SpanKind;
  role?: string;
  toolName?: string;
  toolInput?: unknown;
  exitCode?: number;
  /** TOOL_CALL only; a call still without one at `finish` is UNKNOWN. */
  outcome?: ToolOutcome;
  agentId?: string;
  agentType?: string;
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

  /** Records skipped while reading this session (see ImportedSession.skipped). */
  readonly skipped: ImportIssue[] = [];

  constructor(
    readonly externalId: string,
    private readonly collector?: ImportCollector,
  ) {}

  add(span: DraftSpan): DraftSpan {
    this.collector?.use(span.sourceLine);
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
    this.collector?.use(span.sourceLine);
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

  finish(runtime: ImportFormat, fileSkips: readonly ImportIssue[] = []): ImportedSession {
    const kept = this.spans.filter((s) => !s.dropped);
    const seqOf = new Map<DraftSpan, number>();
    kept.forEach((s, i) => seqOf.set(s, i));
    const times = fillTimes(kept);
    const callOutcome = new Map<string, ToolOutcome>();
    for (const s of kept)
      if (s.kind === "TOOL_CALL" && s.sourceId !== undefined) callOutcome.set(s.sourceId, s.outcome ?? "UNKNOWN");
    const spans: ImportedSpan[] = kept.map((s, seq) => {
      const out: ImportedSpan = { seq, kind: s.kind, occurredAt: times[seq]!, body: s.body, sourceLine: s.sourceLine };
      if (s.role !== undefined) out.role = s.role;
      if (s.toolName !== undefined) out.toolName = s.toolName;
      if (s.toolInput !== undefined) out.toolInput = s.toolInput;
      if (s.exitCode !== undefined) out.exitCode = s.exitCode;
      if (s.kind === "TOOL_CALL") out.outcome = s.outcome ?? "UNKNOWN";
      // A result shares its call's outcome, so a question matching the result's bytes knows how it went.
      else if (s.kind === "TOOL_RESULT" && s.sourceId !== undefined && callOutcome.has(s.sourceId))
        out.outcome = callOutcome.get(s.sourceId)!;
      if (s.agentId !== undefined) out.agentId = s.agentId;
      if (s.agentType !== undefined) out.agentType = s.agentType;
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
    const skipped = [...this.skipped, ...fileSkips].sort((a, b) => a.line - b.line);
    const session: ImportedSession = { externalId: this.externalId, runtime, spans, compactions, skipped };
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

type Disposition = { state: "used" } | { state: "ignored"; type: string } | { state: "skipped" };

/** Where a reader reports each record it reads and each one it cannot use. */
export interface RecordSink {
  read(line: number): void;
  skip(line: number, reason: string): void;
}

/**
 * Sessions by external id, in the order they first appear, plus the file's accounting: every
 * record read gets exactly one disposition (used, ignored or skipped), so nothing is lost silently.
 * A record that gave any span is used, even when a part of it was skipped (the part still makes
 * its session incomplete). A record read and never accounted for is reported as skipped.
 */
export class ImportCollector implements RecordSink {
  readonly issues: ImportIssue[] = [];
  private readonly sessions = new Map<string, SessionDraft>();
  private readonly records = new Map<number, Disposition | undefined>();
  private readonly fileSkips: ImportIssue[] = [];

  constructor(readonly format: ImportFormat) {}

  /** A record exists at `line` (JSON Lines readers call this; document readers for each element). */
  read(line: number): void {
    if (!this.records.has(line)) this.records.set(line, undefined);
  }

  /** The record became, or merged into, a span or a session's metadata. */
  use(line: number): void {
    this.records.set(line, { state: "used" });
  }

  /** The record is of a type on the format's documented list of non-evidence records. */
  ignore(line: number, type: string): void {
    if (this.records.get(line)?.state !== "used") this.records.set(line, { state: "ignored", type });
  }

  /**
   * The record (or a part of it) could not be used. It makes `draft` incomplete, or every session
   * of the file when it cannot be tied to one.
   */
  skip(line: number, reason: string, draft?: SessionDraft): void {
    const issue = { line, message: reason };
    this.issues.push(issue);
    if (this.records.get(line)?.state !== "used") this.records.set(line, { state: "skipped" });
    (draft ? draft.skipped : this.fileSkips).push(issue);
  }

  /** A warning about a record that was still used (a missing time, a field it had to drop). */
  issue(line: number, message: string): void {
    this.issues.push({ line, message });
  }

  session(externalId: string): SessionDraft {
    let draft = this.sessions.get(externalId);
    if (!draft) {
      draft = new SessionDraft(externalId, this);
      this.sessions.set(externalId, draft);
    }
    return draft;
  }

  has(externalId: string): boolean {
    return this.sessions.has(externalId);
  }

  /** Sessions with no spans (a file holding only titles or metadata) are left out. */
  result(): ImportResult {
    for (const [line, disposition] of this.records) {
      if (disposition === undefined) this.skip(line, "record not accounted for by the importer; skipped");
    }
    const sessions = [...this.sessions.values()].filter((d) => !d.isEmpty).map((d) => d.finish(this.format, this.fileSkips));
    const issues = [...this.issues].sort((a, b) => a.line - b.line);
    return { format: this.format, sessions, issues, records: this.tally() };
  }

  private tally(): ImportRecords {
    const records: ImportRecords = { read: this.records.size, used: 0, ignored: 0, skipped: 0, ignoredByType: {} };
    for (const disposition of this.records.values()) {
      if (disposition === undefined) continue;
      records[disposition.state] += 1;
      if (disposition.state === "ignored") {
        records.ignoredByType[disposition.type] = (records.ignoredByType[disposition.type] ?? 0) + 1;
      }
    }
    return records;
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
    this.collector.issue(
      line,
      raw === undefined
        ? "no timestamp and no earlier one; using the next known time"
        : `unreadable timestamp ${JSON.stringify(raw)} and no earlier one; using the next known time`,
    );
    return undefined;
  }

  /** Records a time without attributing it to a span (metadata records still move the clock). */
  see(raw: unknown, parse: (v: unknown) => Date | undefined = parseTimestamp): void {
    const own = parse(raw);
    if (own) this.last = own;
  }
}
