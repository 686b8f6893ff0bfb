/**
 * Builds one planned session as COPY-ready rows: every span goes through the real analyzer, every
 * compaction through the real gate, and what ingest, reclamation, operators and the sweeper would
 * have written (spans, originals, atoms, summaries and their links, decisions, refusals, audit
 * rows) comes out in chunks, so a 100,000-span session never sits in memory whole.
 */
import { createHash, randomUUID } from "node:crypto";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { maxClassOf } from "@/lib/evidence/classes";
import { evaluateGate, type GateDecision } from "@/lib/evidence/gate";
import { compareSummary, countByKind, makeHonestSummary } from "@/lib/evidence/manifest";
import { DAY_MS, expiresAtFor } from "@/lib/evidence/policy";
import type { Atom, CandidateSummary, EvidentialClass, RetentionPolicy, SpanKind, TranscriptState } from "@/lib/evidence/types";
import { atomJson } from "../decision-json";
import { byteaField, field, line } from "../copy";
import type { SessionPlan } from "./plan";
import { rng, sessionProfile, TranscriptGenerator, type SessionProfile } from "./transcript";

export const COLUMNS = {
  span: [
    "session_id",
    "id",
    "seq",
    "kind",
    "role",
    "tool_name",
    "tool_input",
    "exit_code",
    "occurred_at",
    "class",
    "class_reasons",
    "transcript_state",
    "has_pointer",
    "byte_length",
    "sha256",
    "generation",
    "created_at",
    "original_state",
    "original_expires_at",
    "replacing_summary_id",
    "replaced_dropped",
  ],
  span_original: ["session_id", "span_id", "bytes", "sha256", "expires_at", "pinned", "deleted_at", "delete_reason"],
  evidence_atom: [
    "session_id",
    "span_id",
    "ordinal",
    "kind",
    "text",
    "normalized",
    "byte_start",
    "byte_end",
    "effect",
    "negated",
    "arg_name",
  ],
  summary_link: [
    "session_id",
    "summary_span_id",
    "replaced_span_id",
    "pointer_start",
    "pointer_end",
    "pointer_sha256",
    "dropped",
  ],
  gate_decision: [
    "session_id",
    "id",
    "span_id",
    "reclamation_id",
    "verdict",
    "cell_class",
    "cell_provenance",
    "reason",
    "requester",
    "dry_run",
    "decided_at",
  ],
  refusal_event: [
    "session_id",
    "id",
    "project_id",
    "span_id",
    "decision_id",
    "cell_class",
    "cell_provenance",
    "reason",
    "requester",
    "atoms_at_risk",
    "occurred_at",
  ],
  audit_log: [
    "id",
    "project_id",
    "actor_type",
    "actor_id",
    "actor_label",
    "act",
    "target_type",
    "target_id",
    "before",
    "after",
    "reason",
    "at",
  ],
} as const;

/** In foreign-key order. */
export type TableName = keyof typeof COLUMNS;
export const TABLES = Object.keys(COLUMNS) as TableName[];

export interface SessionRow {
  id: string;
  externalId: string;
  runtime: string;
  title: string;
  cwd: string;
  startedAt: Date;
}

export interface BuiltChunk {
  sessionIndex: number;
  /** On a session's first chunk. */
  session?: SessionRow;
  /** On a session's last chunk: when its last span occurred. */
  lastActivityAt?: Date;
  tables: Record<TableName, string>;
  spans: number;
  summaries: number;
  atoms: number;
  bytes: number;
}

export interface BuildContext {
  projectId: string;
  policy: RetentionPolicy;
  now: Date;
}

const CHUNK_SPANS = 4000;
/** The newest spans a compactor keeps verbatim. */
const KEEP_RECENT = 40;
/** What a retention owner shortened structured and side-effecting TTLs to in "shortened" sessions. */
const SHORTENED_TTL_DAYS = 90;
/** Originals that stopped matching their hash (storage damage), per span. */
const CORRUPTION_RATE = 1 / 20_000;

const STATE_FOR_VERDICT = { RECLAIM: "RECLAIMED", RECLAIM_HONEST: "RECLAIMED_HONEST", REFUSE: "PRESERVED" } as const;
const OBSERVED_STATE_FOR_VERDICT = { RECLAIM: "RECLAIMED", RECLAIM_HONEST: "RECLAIMED_HONEST", REFUSE: "RECLAIMED" } as const;

interface Item {
  id: string;
  seq: number | null;
  kind: SpanKind;
  role: string | null;
  toolName: string | null;
  toolInput: string | null;
  exitCode: number | null;
  occurredAt: Date;
  cls: EvidentialClass;
  classReasons: string;
  body: Uint8Array;
  sha256: string;
  atoms: Atom[];
  state: TranscriptState;
  hasPointer: boolean;
  generation: number;
  corrupt: boolean;
  /** Summaries: their link rows, written with them. */
  links: string[];
  /** The summary that replaced this span, for the sweeper's "moved to LOST" record. */
  replacedBy: string | null;
  /** What that summary dropped of this span's atoms, as its link records it. */
  replacedDropped: string | null;
}

const enc = new TextEncoder();
const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export function* buildSession(plan: SessionPlan, ctx: BuildContext): Generator<BuiltChunk> {
  const profile = sessionProfile(plan.seed);
  const r = rng(plan.seed ^ 0x5eed);
  const sessionId = randomUUID();
  const requester = plan.compaction === "observed" ? `importer:${profile.runtime}` : `runtime:${profile.runtime}`;
  const session: SessionRow = {
    id: sessionId,
    externalId: `${profile.runtime}-${plan.index.toString().padStart(4, "0")}-${sessionId.slice(0, 8)}`,
    runtime: profile.runtime,
    title: `${profile.topic.replace(/^./, (c) => c.toUpperCase())} (${profile.ticketPrefix}-${100 + plan.index})`,
    cwd: profile.cwd,
    startedAt: plan.startedAt,
  };

  const out = newBuffers();
  let counts = { spans: 0, summaries: 0, atoms: 0, bytes: 0 };
  let firstChunk = true;
  let pending: Item[] = [];
  let heldSummary: Item | null = null;
  let lastOccurred = plan.startedAt;

  const flush = (last: boolean): BuiltChunk => {
    const chunk: BuiltChunk = {
      sessionIndex: plan.index,
      ...(firstChunk ? { session } : {}),
      ...(last ? { lastActivityAt: lastOccurred } : {}),
      tables: Object.fromEntries(TABLES.map((t) => [t, out[t].join("")])) as Record<TableName, string>,
      ...counts,
    };
    firstChunk = false;
    for (const t of TABLES) out[t] = [];
    counts = { spans: 0, summaries: 0, atoms: 0, bytes: 0 };
    return chunk;
  };

  const emit = (item: Item) => {
    writeItem(out, item, sessionId, plan, ctx);
    if (item.kind === "SUMMARY") counts.summaries++;
    else counts.spans++;
    counts.atoms += item.atoms.length;
    counts.bytes += item.body.byteLength;
  };

  const generator = new TranscriptGenerator(profile);
  // A runtime that lost a few spans in transit leaves a hole in the seqs: no proof of absence there.
  const gapFrom = plan.gap ? Math.floor(plan.spans / 2) : -1;
  const gapTo = gapFrom + 3 + (plan.seed % 5);
  for (let n = 0; n < plan.spans; n++) {
    let g = generator.next();
    while (g.seq >= gapFrom && g.seq < gapTo) g = generator.next();
    const occurredAt = new Date(plan.startedAt.getTime() + g.offsetMs);
    lastOccurred = occurredAt;
    const body = enc.encode(g.body);
    const analysis = analyzeSpan({
      body,
      kind: g.kind,
      role: g.role,
      toolName: g.toolName,
      toolInput: g.toolInput,
      exitCode: g.exitCode,
      cwd: profile.cwd,
    });
    const item: Item = {
      id: randomUUID(),
      seq: g.seq,
      kind: g.kind,
      role: g.role,
      toolName: g.toolName ?? null,
      toolInput: g.toolInput ? JSON.stringify(g.toolInput) : null,
      exitCode: g.exitCode ?? null,
      occurredAt,
      cls: analysis.classification.class,
      classReasons: JSON.stringify(analysis.classification.reasons),
      body,
      sha256: sha256Hex(body),
      atoms: analysis.atoms.filter((a) => !a.text.includes("\u0000") && !a.normalized.includes("\u0000")),
      state: "VERBATIM",
      hasPointer: true,
      generation: 0,
      corrupt: r() < CORRUPTION_RATE,
      links: [],
      replacedBy: null,
      replacedDropped: null,
    };

    if (plan.compaction === "none") {
      emit(item);
    } else {
      pending.push(item);
      if (g.seq > 0 && g.seq % plan.compactEvery === 0) {
        const cut = g.seq - KEEP_RECENT;
        const window = pending.filter((p) => p.seq !== null && p.seq < cut);
        pending = pending.filter((p) => p.seq === null || p.seq >= cut);
        const previous = heldSummary;
        heldSummary = null;
        // Now and then a compactor folds its previous summary into the next one: a second generation.
        const selection = previous && r() < 0.3 ? [previous, ...window] : window;
        if (previous && selection[0] !== previous) emit(previous);
        const at = new Date(occurredAt.getTime() + 1000);
        const summaries = compact(selection, plan, profile, ctx, at, requester, sessionId, out, r);
        for (const s of selection) emit(s);
        // The latest summary waits: the next compaction may replace it.
        const latest = summaries.pop() ?? null;
        for (const s of summaries) emit(s);
        heldSummary = latest;
      }
    }
    if (counts.spans >= CHUNK_SPANS) yield flush(false);
  }
  for (const item of pending) emit(item);
  if (heldSummary) emit(heldSummary);
  yield flush(true);
}

function newBuffers(): Record<TableName, string[]> {
  return Object.fromEntries(TABLES.map((t) => [t, [] as string[]])) as Record<TableName, string[]>;
}

/**
 * One compaction as the runtime asked for it (or did it): the gate judges the selection as it stood
 * at `at`, then the states, summary spans, links, decisions and refusals reclamation would record.
 * Returns the summary spans created, oldest first.
 */
function compact(
  selection: Item[],
  plan: SessionPlan,
  profile: SessionProfile,
  ctx: BuildContext,
  at: Date,
  requester: string,
  sessionId: string,
  out: Record<TableName, string[]>,
  r: () => number,
): Item[] {
  if (selection.length === 0) return [];
  const text = summaryText(selection, profile, r);
  const pointers = (items: Item[]) =>
    items.map((s) => ({ spanId: s.id, byteStart: 0, byteEnd: s.body.byteLength, sha256: s.sha256 }));
  const made: Item[] = [];
  const run = (items: Item[], summary: CandidateSummary, observed: boolean) => {
    const summaryItem = reclaimItems(items, summary, observed, plan, profile, ctx, at, requester, sessionId, out);
    if (summaryItem) made.push(summaryItem);
  };
  switch (plan.compaction) {
    case "gated":
      run(selection, { text, pointers: pointers(selection) }, false);
      break;
    case "honest":
      run(
        selection,
        makeHonestSummary(
          selection.flatMap((s) => s.atoms),
          text,
          pointers(selection),
        ),
        false,
      );
      break;
    case "observed":
      run(selection, { text, pointers: [] }, true);
      break;
    case "pointerless": {
      run(selection, { text, pointers: [] }, false);
      const refused = selection.filter((s) => s.state === "PRESERVED");
      if (refused.length > 0 && r() < 0.5) {
        const retry = summaryText(refused, profile, r);
        run(refused, { text: retry, pointers: pointers(refused) }, false);
      }
      break;
    }
    case "none":
      break;
  }
  return made;
}

function reclaimItems(
  items: Item[],
  summary: CandidateSummary,
  observed: boolean,
  plan: SessionPlan,
  profile: SessionProfile,
  ctx: BuildContext,
  at: Date,
  requester: string,
  sessionId: string,
  out: Record<TableName, string[]>,
): Item | null {
  const decisions: GateDecision[] = evaluateGate({
    spans: items.map((s) => ({
      id: s.id,
      class: s.cls,
      atoms: s.atoms,
      hasPointer: s.hasPointer,
      original: {
        present: true,
        hashMatches: !s.corrupt,
        expiresAt: expiryOf(s, plan, ctx.policy),
        pinned: plan.retention === "pinned",
      },
      occurredAt: s.occurredAt,
      sha256: s.sha256,
    })),
    summary,
    policy: ctx.policy,
    now: at,
  });
  const byId = new Map(items.map((s) => [s.id, s]));
  const stateFor = observed ? OBSERVED_STATE_FOR_VERDICT : STATE_FOR_VERDICT;
  const replaced = observed ? decisions : decisions.filter((d) => d.verdict !== "REFUSE");
  let summaryItem: Item | null = null;
  if (replaced.length > 0) {
    const body = enc.encode(summary.text);
    const analysis = analyzeSpan({ body, kind: "SUMMARY", cwd: profile.cwd });
    const parents = replaced.map((d) => byId.get(d.spanId)!);
    const cls = maxClassOf([analysis.classification.class, ...parents.map((p) => p.cls)]);
    summaryItem = {
      id: randomUUID(),
      seq: null,
      kind: "SUMMARY",
      role: null,
      toolName: null,
      toolInput: null,
      exitCode: null,
      occurredAt: at,
      cls,
      classReasons: JSON.stringify([
        ...analysis.classification.reasons,
        { class: cls, rule: "summary.roots", detail: `Highest class among the ${parents.length} spans it replaces` },
      ]),
      body,
      sha256: sha256Hex(body),
      atoms: analysis.atoms,
      state: "VERBATIM",
      hasPointer: true,
      generation: 1 + Math.max(...parents.map((p) => p.generation)),
      corrupt: false,
      links: [],
      replacedBy: null,
      replacedDropped: null,
    };
    for (const parent of parents) {
      const pointer = summary.pointers.find((p) => p.spanId === parent.id && p.sha256 === parent.sha256);
      const { dropped } = compareSummary(parent.atoms, summary.text);
      parent.replacedDropped = JSON.stringify(countByKind(dropped));
      summaryItem.links.push(
        line([
          sessionId,
          summaryItem.id,
          parent.id,
          field(pointer?.byteStart ?? null),
          field(pointer?.byteEnd ?? null),
          field(pointer?.sha256 ?? null),
          field(parent.replacedDropped),
        ]),
      );
      parent.replacedBy = summaryItem.id;
    }
  }
  const reclamationId = randomUUID();
  for (const decision of decisions) {
    const span = byId.get(decision.spanId)!;
    const pointed = summary.pointers.some((p) => p.spanId === span.id && p.sha256 === span.sha256);
    span.state = stateFor[decision.verdict];
    if (span.state !== "PRESERVED") span.hasPointer = pointed;
    const decisionId = randomUUID();
    const reason =
      observed && decision.verdict === "REFUSE"
        ? `Compacted by the runtime without the gate, which would have refused: ${decision.reason}`
        : decision.reason;
    out.gate_decision.push(
      line([
        sessionId,
        decisionId,
        span.id,
        reclamationId,
        decision.verdict,
        decision.cell.class,
        decision.cell.provenance,
        field(reason),
        field(requester),
        "f",
        field(at),
      ]),
    );
    if (decision.verdict === "REFUSE" && !observed) {
      out.refusal_event.push(
        line([
          sessionId,
          randomUUID(),
          ctx.projectId,
          span.id,
          decisionId,
          decision.cell.class,
          decision.cell.provenance,
          field(decision.reason),
          field(requester),
          field(JSON.stringify((decision.atomsAtRisk ?? []).map(atomJson))),
          field(at),
        ]),
      );
    }
  }
  return summaryItem;
}

/** What a compactor's summary says: the gist, and a few of the paths and numbers it kept. */
function summaryText(items: Item[], profile: SessionProfile, r: () => number): string {
  const paths = [...new Set(items.flatMap((s) => s.atoms.filter((a) => a.kind === "PATH" && !a.negated).map((a) => a.text)))];
  const kept = paths.filter(() => r() < 0.15).slice(0, 6);
  const tests = items
    .flatMap((s) => s.atoms.filter((a) => a.kind === "NUMBER" && a.text.endsWith("passed")).map((a) => a.text))
    .slice(0, 1);
  return (
    `Earlier in this session the agent worked to ${profile.topic}. ` +
    (kept.length > 0 ? `It read and edited ${kept.join(", ")}. ` : "It inspected and edited several source files. ") +
    (tests.length > 0 ? `The last test run reported ${tests[0]}. ` : "") +
    `It ran the test suite several times and kept notes on what failed.`
  );
}

function expiryOf(item: Item, plan: SessionPlan, policy: RetentionPolicy): Date {
  if (plan.retention === "shortened" && item.cls !== "NARRATIVE")
    return new Date(item.occurredAt.getTime() + SHORTENED_TTL_DAYS * DAY_MS);
  return expiresAtFor(item.cls, item.occurredAt, policy);
}

/** The span, its original as retention and the sweeper left it by now, its atoms, links and audit rows. */
function writeItem(out: Record<TableName, string[]>, item: Item, sessionId: string, plan: SessionPlan, ctx: BuildContext): void {
  const pinned = plan.retention === "pinned";
  const expiresAt = expiryOf(item, plan, ctx.policy);
  // The sweeper runs daily: what expired more than a day ago is gone; the last day's expiries wait.
  const swept = !pinned && expiresAt.getTime() <= ctx.now.getTime() - DAY_MS;
  const deletedAt = swept ? new Date(Math.min(expiresAt.getTime() + 3_600_000, ctx.now.getTime())) : null;
  // The original's facts as the database's triggers would copy them onto the span (passing them
  // here spares those triggers an UPDATE per span).
  const originalState = swept ? "DELETED" : item.corrupt ? "HASH_MISMATCH" : "HELD";
  out.span.push(
    line([
      sessionId,
      item.id,
      field(item.seq),
      item.kind,
      field(item.role),
      field(item.toolName),
      field(item.toolInput),
      field(item.exitCode),
      field(item.occurredAt),
      item.cls,
      field(item.classReasons),
      item.state,
      field(item.hasPointer),
      String(item.body.byteLength),
      item.sha256,
      String(item.generation),
      field(item.occurredAt),
      originalState,
      field(pinned || swept ? null : expiresAt),
      field(item.replacedBy),
      field(item.replacedDropped),
    ]),
  );

  let bytes: Uint8Array | null = swept ? null : item.body;
  if (bytes && item.corrupt) {
    bytes = Uint8Array.from(bytes);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0x20;
  }
  out.span_original.push(
    line([
      sessionId,
      item.id,
      byteaField(bytes),
      item.sha256,
      field(expiresAt),
      field(pinned),
      field(deletedAt),
      swept ? "ttl expired" : "\\N",
    ]),
  );

  item.atoms.forEach((a, ordinal) => {
    out.evidence_atom.push(
      line([
        sessionId,
        item.id,
        String(ordinal),
        a.kind,
        field(a.text),
        field(a.normalized),
        String(a.byteStart),
        String(a.byteEnd),
        field(a.effect ?? null),
        field(a.negated ?? false),
        field(a.argName ?? null),
      ]),
    );
  });
  for (const link of item.links) out.summary_link.push(link);

  const audit = (act: string, at: Date, before: unknown, after: unknown, reason: string, label: string) =>
    out.audit_log.push(
      line([
        randomUUID(),
        ctx.projectId,
        "SYSTEM",
        "\\N",
        field(label),
        act,
        "span",
        item.id,
        field(JSON.stringify(before)),
        field(JSON.stringify(after)),
        field(reason),
        field(at),
      ]),
    );
  const actAt = new Date(Math.min(item.occurredAt.getTime() + 2 * DAY_MS, ctx.now.getTime()));
  if (pinned)
    audit("original.pin", actAt, { pinned: false }, { pinned: true }, "Legal hold for an incident review", "legal hold import");
  if (plan.retention === "shortened" && item.cls !== "NARRATIVE") {
    audit(
      "original.shorten",
      actAt,
      { expiresAt: expiresAtFor(item.cls, item.occurredAt, ctx.policy) },
      { expiresAt },
      `Storage budget: ${SHORTENED_TTL_DAYS}-day TTL for this runtime's originals`,
      "retention owner",
    );
  }
  if (swept && deletedAt) {
    audit(
      "original.sweep",
      deletedAt,
      { expiresAt, present: true },
      { present: false, movedToLost: item.replacedBy ? [item.id, item.replacedBy] : [item.id] },
      "TTL passed and the original was not pinned",
      "sweeper",
    );
  }
}
