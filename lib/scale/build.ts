/**
 * Builds one planned session as COPY-ready rows: every span goes through the real analyzer, every
 * compaction through the real gate, and what ingest, reclamation, operators and the sweeper would
 * have written (spans, originals, atoms, summaries and their links, decisions, refusals, audit
 * rows) comes out in chunks, so a 100,000-span session never sits in memory whole.
 */
import { randomUUID } from "node:crypto";
import { sha256Hex } from "@/lib/core/hash";
import { analyzeSpan } from "@/lib/evidence/analyze";
import { DAY_MS, expiresAtFor } from "@/lib/evidence/policy";
import { byteaField, field, line } from "@/lib/db/copy";
import { atomRowsFor } from "@/lib/server/ingest";
import { TABLES, type TableName } from "./columns";
import type { SessionPlan } from "./plan";
import { rng, sessionProfile, TranscriptGenerator } from "./transcript";

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

import { compact, expiryOf, SHORTENED_TTL_DAYS, type BuildContext, type Item } from "./compaction";

export type { BuildContext } from "./compaction";

const CHUNK_SPANS = 4000;
/** The newest spans a compactor keeps verbatim. */
const KEEP_RECENT = 40;
/** Originals that stopped matching their hash (storage damage), per span. */
const CORRUPTION_RATE = 1 / 20_000;

const enc = new TextEncoder();

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
      atoms: analysis.atoms,
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

  // As ingest writes them: atomRowsFor is the one place atoms become rows.
  for (const a of atomRowsFor({ projectId: ctx.projectId, sessionId }, item.id, item.atoms)) {
    out.evidence_atom.push(
      line([
        ctx.projectId,
        sessionId,
        item.id,
        String(a.ordinal),
        a.kind,
        field(a.text),
        field(a.normalized),
        String(a.byteStart),
        String(a.byteEnd),
        field(a.effect),
        field(a.negated),
        field(a.argName),
      ]),
    );
  }
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
