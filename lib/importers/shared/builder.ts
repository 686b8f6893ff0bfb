/**
 * Assembles importer output. Importers add draft spans as they read; pairing can still change a
 * draft afterwards (an exit code arriving later) or drop it (a fallback made redundant), so seq
 * numbers, compaction seqs and missing times are settled only when the spans are taken: all at
 * once at the end of the file, or window by window at points where the reader knows no later
 * record can change what it holds (see ImportCollector.takeWindow).
 */
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { SpanKind } from "@/lib/evidence/types";
import type {
  ImportEnd,
  ImportFormat,
  ImportIssue,
  ImportRecords,
  ImportResult,
  ImportWindow,
  ImportedCompaction,
  ImportedSpan,
  SessionHeader,
  SessionPart,
} from "./types";
import { dropOverLimit } from "./body-limit";
import { readCallOutputs } from "./output-outcomes";
import { RecordLedger } from "./record-ledger";
import { parseTimestamp } from "./text";
import { assembleWindows } from "./windows";

/** What a taken span's draft holds instead of its body: the body left with its window. */
const RELEASED = new Uint8Array(0);

export interface DraftSpan {
  kind: SpanKind;
  role?: string;
  toolName?: string;
  toolInput?: unknown;
  exitCode?: number;
  /** TOOL_CALL only; a call still without one when taken is UNKNOWN. */
  outcome?: ToolOutcome;
  agentId?: string;
  agentType?: string;
  cwd?: string;
  /** Undefined until taken when no record before it had a time. */
  occurredAt?: Date;
  body: Uint8Array;
  sourceLine: number;
  sourceId?: string;
  dropped?: boolean;
  /**
   * Set when the span is taken in a window: its final position. Its body, arguments and ids are
   * then released (what a later compaction or result needs of it stays: seq, kind, tool name, line).
   */
  seq?: number;
}

interface DraftCompaction {
  summary: DraftSpan;
  replaced: DraftSpan[];
}

export class SessionDraft {
  title?: string;
  cwd?: string;
  startedAt?: Date;
  /**
   * The agent the whole session is, when the file is a subagent's own and its records name no agent
   * (a Codex thread-spawned subagent's rollout): a span without an agent of its own is this one's.
   */
  agent?: { agentId: string; agentType?: string };
  /** Spans added since the last window was taken, in file order. */
  private pending: DraftSpan[] = [];
  /** Compactions whose summary is pending. */
  private compactions: DraftCompaction[] = [];
  /** Spans since the last compaction (or compact boundary): what the next one replaces by default. */
  private window: DraftSpan[] = [];
  private nextSeq = 0;
  /** The first span's time, for a session whose records name no start. */
  private firstAt: Date | undefined;
  /** Each taken call's outcome by its id: a result taken later shares it. */
  private readonly callOutcome = new Map<string, ToolOutcome>();

  /** Records skipped while reading this session (see ImportedSession.skipped). */
  readonly skipped: ImportIssue[] = [];

  constructor(
    readonly externalId: string,
    private readonly collector?: ImportCollector,
  ) {}

  add(span: DraftSpan): DraftSpan {
    this.collector?.use(span.sourceLine);
    this.pending.push(span);
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
    this.pending.push(summary);
    this.compactions.push({ summary, replaced: taken });
    this.window = [];
    return summary;
  }

  get isEmpty(): boolean {
    return this.nextSeq === 0 && this.pending.every((s) => s.dropped);
  }

  /** Spans added since the last window was taken. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /**
   * The pending spans' times are final: the last kept one has its own (a span without one takes the
   * next known time, which a later record could still bring).
   */
  get settled(): boolean {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const span = this.pending[i]!;
      if (!span.dropped) return span.occurredAt !== undefined;
    }
    return true;
  }

  /** Whether any span was taken: a session that never had one is left out of the result. */
  get hasSpans(): boolean {
    return this.nextSeq > 0;
  }

  /**
   * Takes the pending spans with their final seqs (continuing from the last window), times,
   * outcomes and the compactions they summarise, then releases their bodies.
   */
  take(runtime: ImportFormat): SessionPart {
    // A body over the one cap on spans is not kept, whichever format built it: the record is skipped.
    dropOverLimit(this.pending, {
      overLimit: (line, message, whole) =>
        this.collector ? this.collector.skip(line, message, this, whole) : this.skipped.push({ line, message }),
    });
    const kept = this.pending.filter((s) => !s.dropped);
    // The output can contradict what the runtime said of a call: read it before anything shares the outcome.
    readCallOutputs(kept, (line, message) => this.collector?.issue(line, message));
    const times = fillTimes(kept);
    kept.forEach((s, i) => {
      s.seq = this.nextSeq + i;
    });
    for (const s of kept)
      if (s.kind === "TOOL_CALL" && s.sourceId !== undefined) this.callOutcome.set(s.sourceId, s.outcome ?? "UNKNOWN");
    const spans = kept.map((s, i) => this.imported(s, s.seq!, times[i]!));
    const compactions: ImportedCompaction[] = [];
    for (const c of this.compactions) {
      const summarySeq = c.summary.dropped ? undefined : c.summary.seq;
      if (summarySeq === undefined) continue;
      const replacedSeqs = [...new Set(c.replaced.filter((s) => !s.dropped).map((s) => s.seq))]
        .filter((n): n is number => n !== undefined && n !== summarySeq)
        .sort((a, b) => a - b);
      compactions.push({ summarySeq, replacedSeqs, occurredAt: times[summarySeq - this.nextSeq]! });
    }
    if (this.firstAt === undefined && spans.length > 0) this.firstAt = spans[0]!.occurredAt;
    this.nextSeq += kept.length;
    for (const s of this.pending) {
      // What a later record can still ask of a taken span: its seq, kind, line, tool name, whether dropped.
      s.body = RELEASED;
      s.toolInput = s.occurredAt = undefined;
      s.role = s.cwd = s.agentId = s.agentType = s.sourceId = undefined;
    }
    // What a later compaction replaces of them: their seqs (a dropped span has none), and lines.
    this.window = this.window.flatMap((s) =>
      s.seq === undefined ? (s.dropped ? [] : [s]) : [{ kind: s.kind, body: RELEASED, sourceLine: s.sourceLine, seq: s.seq }],
    );
    this.pending = [];
    this.compactions = [];
    const part: SessionPart = { externalId: this.externalId, runtime, spans, compactions };
    if (this.cwd !== undefined) part.cwd = this.cwd;
    return part;
  }

  private imported(s: DraftSpan, seq: number, occurredAt: Date): ImportedSpan {
    const out: ImportedSpan = { seq, kind: s.kind, occurredAt, body: s.body, sourceLine: s.sourceLine };
    if (s.role !== undefined) out.role = s.role;
    if (s.toolName !== undefined) out.toolName = s.toolName;
    if (s.toolInput !== undefined) out.toolInput = s.toolInput;
    if (s.exitCode !== undefined) out.exitCode = s.exitCode;
    if (s.kind === "TOOL_CALL") out.outcome = s.outcome ?? "UNKNOWN";
    // A result shares its call's outcome, so a question matching the result's bytes knows how it went.
    else if (s.kind === "TOOL_RESULT" && s.sourceId !== undefined && this.callOutcome.has(s.sourceId))
      out.outcome = this.callOutcome.get(s.sourceId)!;
    const agent = s.agentId === undefined && this.agent !== undefined ? this.agent : s;
    if (agent?.agentId !== undefined) out.agentId = agent.agentId;
    if (agent?.agentType !== undefined) out.agentType = agent.agentType;
    if (s.cwd !== undefined) out.cwd = s.cwd;
    if (s.sourceId !== undefined) out.sourceId = s.sourceId;
    return out;
  }

  /** What is known of the session only at the end of the file: title, cwd, start, skipped records. */
  header(runtime: ImportFormat, fileSkips: readonly ImportIssue[] = []): SessionHeader {
    const skipped = [...this.skipped, ...fileSkips].sort((a, b) => a.line - b.line);
    const header: SessionHeader = { externalId: this.externalId, runtime, skipped };
    if (this.title !== undefined) header.title = this.title;
    if (this.cwd !== undefined) header.cwd = this.cwd;
    const startedAt = this.startedAt ?? this.firstAt;
    if (startedAt !== undefined) header.startedAt = startedAt;
    return header;
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
  private readonly records = new RecordLedger();
  private readonly fileSkips: ImportIssue[] = [];

  constructor(readonly format: ImportFormat) {}

  /** A record exists at `line` (JSON Lines readers call this; document readers for each element). */
  read(line: number): void {
    this.records.read(line);
  }

  /** The record became, or merged into, a span or a session's metadata. */
  use(line: number): void {
    this.records.use(line);
  }

  /** The record is of a type on the format's documented list of non-evidence records. */
  ignore(line: number, type: string): void {
    this.records.ignore(line, type);
  }

  /**
   * The record (or a part of it) could not be used. It makes `draft` incomplete, or every session
   * of the file when it cannot be tied to one.
   */
  skip(line: number, reason: string, draft?: SessionDraft, wholeRecord = false): void {
    const issue = { line, message: reason };
    this.issues.push(issue);
    // A record whose only span was over the size limit gave nothing after all: skipped, though used.
    if (wholeRecord) this.records.unuse(line);
    else this.records.skip(line);
    (draft ? draft.skipped : this.fileSkips).push(issue);
  }

  /**
   * `draft`'s session is incomplete though no record of the file is missing (the file starts after
   * the session began or ends before it ended): no record's disposition changes.
   */
  incomplete(line: number, reason: string, draft: SessionDraft): void {
    const issue = { line, message: reason };
    this.issues.push(issue);
    draft.skipped.push(issue);
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

  /** Spans added to any session since the last window was taken. */
  get pendingSpans(): number {
    let n = 0;
    for (const draft of this.sessions.values()) n += draft.pendingCount;
    return n;
  }

  /** Every session's pending spans have their final times (the reader answers for its own pairing). */
  get settled(): boolean {
    for (const draft of this.sessions.values()) if (!draft.settled) return false;
    return true;
  }

  /**
   * Takes every session's pending spans. Call it only where no later record can change them: the
   * reader has nothing waiting to pair and `settled` holds (or at the end of the file).
   */
  takeWindow(): ImportWindow {
    const sessions: SessionPart[] = [];
    for (const draft of this.sessions.values()) {
      if (draft.pendingCount === 0) continue;
      const part = draft.take(this.format);
      if (part.spans.length > 0) sessions.push(part);
    }
    return { sessions };
  }

  /**
   * The file's accounting, once every window is taken: sessions with spans (in the order they first
   * appeared; one holding only titles or metadata is left out), issues and the records' tally.
   */
  end(): ImportEnd {
    for (const line of [...this.records.unaccounted()]) this.skip(line, "record not accounted for by the importer; skipped");
    const sessions = [...this.sessions.values()].filter((d) => d.hasSpans).map((d) => d.header(this.format, this.fileSkips));
    const issues = [...this.issues].sort((a, b) => a.line - b.line);
    return { format: this.format, sessions, issues, records: this.tally() };
  }

  /** The whole file as one window. */
  result(): ImportResult {
    const window = this.takeWindow();
    return assembleWindows([window], this.end());
  }

  private tally(): ImportRecords {
    const records: ImportRecords = { read: this.records.size, used: 0, ignored: 0, skipped: 0, ignoredByType: {} };
    for (const disposition of this.records.dispositions()) {
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
