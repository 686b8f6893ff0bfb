/**
 * The OTLP receiver's use case: a batch of spans (an ExportTraceServiceRequest in its JSON mapping)
 * is stored as received, then every conversation it touches is mapped again as a whole by the
 * GenAI importer and what is new goes through the same ingest path as any import. Mapping whole
 * conversations is what lets a tool span without `gen_ai.conversation.id` inherit it from an
 * ancestor that arrives in a later batch, and a chat span's repeated history be recognised.
 *
 * A span the importer skips is rejected in OTLP's partial success (and recorded against its
 * session), and so is a span over the attribute, event or link caps (OTLP_SPAN_LIMITS), which is
 * not stored at all; a span whose ancestors are not here yet and whose trace names no single conversation is
 * held, with a warning, and mapped when they arrive.
 *
 * What the session holds is that mapping, whatever order the batches came in: the spans are mapped in
 * an order of their own (time, then ids), not of receipt, and a session of the receiver's own is
 * reconciled with the mapping (./otlp-reconcile): new spans take their place in it, stored ones move
 * to their seq, ones it no longer gives go. A batch sent twice adds nothing.
 */
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { resourceOverLimits, spanOverLimits } from "@/lib/importers/otel-genai/otlp-limits";
import { resolveAlongParents } from "@/lib/importers/shared/parent-chain";
import type { ImportedSession } from "@/lib/importers/shared/types";
import { parseOtlpOffThread } from "@/lib/server/imports";
import { appendSpans, ingestPolicy, rowsAhead, upsertSession } from "@/lib/server/ingest";
import { linkCompactions } from "./compactions";
import { applyPlan, forgetUnmappedSessions, planSession, rewrites } from "./otlp-reconcile";

export interface OtlpReceipt {
  /** Spans of the batch that could not be mapped: OTLP's `rejected_spans`. */
  rejectedSpans: number;
  /** Why, one reason per line (and a warning for held spans); empty when all went through. */
  errorMessage: string;
  /** Sessions the batch touched, by external id (the conversation id, else the trace id). */
  sessions: Array<{ id: string; externalId: string; newSpans: number }>;
  held: number;
}

interface BatchSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  conversationId: string | null;
  span: Record<string, unknown>;
  resource: unknown[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function conversationOf(span: Record<string, unknown>): string | null {
  for (const attr of list(span.attributes)) {
    if (isRecord(attr) && attr.key === "gen_ai.conversation.id" && isRecord(attr.value)) {
      const v = attr.value.stringValue;
      if (typeof v === "string" && v.length > 0) return v;
    }
  }
  return null;
}

/** The batch's spans, and a reason for each entry that is not a span at all. */
function flatten(request: Record<string, unknown>): { spans: BatchSpan[]; malformed: string[] } {
  const spans: BatchSpan[] = [];
  const malformed: string[] = [];
  for (const rs of list(request.resourceSpans)) {
    const resource = isRecord(rs) && isRecord(rs.resource) ? list(rs.resource.attributes) : [];
    // Each stored span carries a copy of its resource: one over the cap is not stored even once.
    const overResource = resourceOverLimits(resource);
    for (const scope of isRecord(rs) ? list(rs.scopeSpans) : []) {
      for (const span of isRecord(scope) ? list(scope.spans) : []) {
        if (
          !isRecord(span) ||
          typeof span.traceId !== "string" ||
          typeof span.spanId !== "string" ||
          !span.traceId ||
          !span.spanId
        ) {
          malformed.push("a span without traceId and spanId cannot be mapped");
          continue;
        }
        // Counted before its attributes are read or stored (see OTLP_SPAN_LIMITS): rejected whole.
        const over = overResource ? `a resource with ${overResource}` : spanOverLimits(span);
        if (over) {
          malformed.push(`span ${span.spanId} has ${over}; rejected`);
          continue;
        }
        const parent = typeof span.parentSpanId === "string" && span.parentSpanId ? span.parentSpanId : null;
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: parent,
          conversationId: conversationOf(span),
          span,
          resource,
        });
      }
    }
  }
  return { spans, malformed };
}

type StoredOtlpSpan = Awaited<ReturnType<typeof loadTraces>>[number];

async function loadTraces(projectId: string, traceIds: string[]) {
  return db().otlpSpan.findMany({ where: { projectId, traceId: { in: traceIds } }, orderBy: { ordinal: "asc" } });
}

/** Every stored span of the given traces and of the conversations those traces name. */
async function conversationSpans(projectId: string, traceIds: string[]): Promise<StoredOtlpSpan[]> {
  const traces = new Set(traceIds);
  let stored = await loadTraces(projectId, [...traces]);
  const conversations = [...new Set(stored.map((s) => s.conversationId).filter((c): c is string => c !== null))];
  if (conversations.length > 0) {
    const more = await db().otlpSpan.findMany({
      where: { projectId, conversationId: { in: conversations }, traceId: { notIn: [...traces] } },
      select: { traceId: true },
      distinct: ["traceId"],
    });
    if (more.length > 0) stored = await loadTraces(projectId, [...traces, ...more.map((m) => m.traceId)]);
  }
  return stored;
}

/**
 * How long a span waits for a missing ancestor. Exporters send a span when it ends, so children
 * come before their parents; mapped too early, a chat span's requested tool call would become a
 * span of its own before the execute_tool span that records the call arrives, and a tool span
 * would not know its conversation. A remote parent never arrives: after this wait the span is
 * mapped with what is here (at the next batch that touches its trace or conversation).
 */
export const OTLP_HOLD_MS = 60_000;

/**
 * Spans with an ancestor not received yet, received less than OTLP_HOLD_MS ago. Whether an ancestor
 * is missing is resolved once per span from its parent's answer (walking each span's ancestors anew
 * took N²/2 steps for a chain of N spans); a loop of parent ids misses nothing.
 */
function heldSpans(stored: StoredOtlpSpan[], now: Date): Set<StoredOtlpSpan> {
  const byKey = new Map(stored.map((s) => [`${s.traceId}/${s.spanId}`, s]));
  const { values: missingAbove } = resolveAlongParents<StoredOtlpSpan, boolean>(
    stored,
    (s) => (s.parentSpanId ? byKey.get(`${s.traceId}/${s.parentSpanId}`) : undefined),
    (s, above) => (typeof above === "object" ? above.value : above === "root" && s.parentSpanId !== null),
  );
  return new Set(stored.filter((s) => now.getTime() - s.receivedAt.getTime() < OTLP_HOLD_MS && missingAbove.get(s) === true));
}

/**
 * Batches of one project are mapped one at a time in this process (exporters send concurrently, and
 * new spans take the next free seq); across processes a CONFLICT on append is retried once. The
 * maintenance round's mapping of held spans waits in the same queue.
 */
const queues = new Map<string, Promise<unknown>>();

function inQueue<T>(projectId: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(projectId) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(run);
  queues.set(projectId, next);
  void next
    .finally(() => {
      if (queues.get(projectId) === next) queues.delete(projectId);
    })
    .catch(() => undefined);
  return next;
}

/** Raw spans stored per statement. */
const STORE_SLICE = 500;

/** Stores the batch, maps the conversations it touches, and ingests what is new. */
export function receiveOtlpTraces(
  projectId: string,
  request: Record<string, unknown>,
  options: { requester: string; now?: Date },
): Promise<OtlpReceipt> {
  return inQueue(projectId, () => receive(projectId, request, options));
}

/**
 * Maps the given traces again (with the conversations they name), as a batch touching them would:
 * how the maintenance round releases spans held for an ancestor that never came. Returns the spans
 * it ingested.
 */
export function mapOtlpTraces(
  projectId: string,
  traceIds: string[],
  options: { requester: string; now?: Date },
): Promise<number> {
  return inQueue(projectId, async () => {
    const mapped = await mapTraces(projectId, traceIds, new Set(), options);
    return mapped.sessions.reduce((n, session) => n + session.newSpans, 0);
  });
}

async function receive(
  projectId: string,
  request: Record<string, unknown>,
  options: { requester: string; now?: Date },
): Promise<OtlpReceipt> {
  const { spans: batch, malformed } = flatten(request);
  // In slices: Prisma compiles a createMany on the event loop, in time that grows faster than its
  // rows (10,000 spans in one call held the loop for seconds).
  for (let from = 0; from < batch.length; from += STORE_SLICE) {
    await db().otlpSpan.createMany({
      data: batch.slice(from, from + STORE_SLICE).map((s) => ({
        projectId,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId,
        conversationId: s.conversationId,
        span: s.span as Prisma.InputJsonValue,
        resource: s.resource as Prisma.InputJsonValue,
      })),
      skipDuplicates: true,
    });
  }
  const inBatch = new Set(batch.map((s) => `${s.traceId}/${s.spanId}`));
  const mapped =
    batch.length > 0 ? await mapTraces(projectId, [...new Set(batch.map((s) => s.traceId))], inBatch, options) : undefined;
  const reasons = [...malformed, ...(mapped?.reasons ?? [])];
  const held = mapped?.held ?? 0;
  if (held > 0) reasons.push(heldSpansWarning(held, env().CUSTODIAN_SWEEP_INTERVAL_MINUTES));
  return {
    rejectedSpans: malformed.length + (mapped?.rejected ?? 0),
    errorMessage: reasons.join("\n"),
    sessions: mapped?.sessions ?? [],
    held,
  };
}

/**
 * What a sender is told of spans held for their ancestors, as it happens: the wait is a minute, but
 * a held span is mapped only by something that comes after it, the next batch touching its trace or
 * conversation, else the maintenance round (hourly by default), which the last spans of a run wait for.
 */
export function heldSpansWarning(held: number, sweepIntervalMinutes: number): string {
  const round =
    sweepIntervalMinutes > 0
      ? `the next maintenance round (every ${sweepIntervalMinutes} minute${sweepIntervalMinutes === 1 ? "" : "s"})`
      : "the next `npm run sweep` (the maintenance schedule is off)";
  return (
    `${held} span${held === 1 ? "" : "s"} held until their parent spans arrive; after a minute without them, mapped as ` +
    `${held === 1 ? "it is" : "they are"} by the next batch of the same trace or conversation, else by ${round}`
  );
}

/**
 * Maps every stored span of the traces (and their conversations) that is not held, and ingests
 * what is new. Rejections and held spans are counted for the spans of `inBatch` only: the ones
 * whoever asked sent.
 */
async function mapTraces(
  projectId: string,
  traceIds: string[],
  inBatch: Set<string>,
  options: { requester: string; now?: Date },
): Promise<{ reasons: string[]; rejected: number; held: number; sessions: OtlpReceipt["sessions"] }> {
  const stored = await conversationSpans(projectId, traceIds);
  const held = heldSpans(stored, options.now ?? new Date());
  // In an order of their own, not of receipt: spans at the same time map alike whichever came first.
  const mapped = inOwnOrder(stored.filter((s) => !held.has(s)));
  // One resourceSpans per span: the importer numbers spans 1, 2, 3... in this order.
  const parsed = await parseOtlpOffThread({
    resourceSpans: mapped.map((s) => ({ resource: { attributes: s.resource }, scopeSpans: [{ spans: [s.span] }] })),
  });
  const ordinalOf = (position: number) =>
    position >= 1 && position <= mapped.length ? Number(mapped[position - 1]!.ordinal) : 0;
  const reasons: string[] = [];
  const rejected = new Set<number>();
  const used = new Set(parsed.sessions.flatMap((session) => session.spans.map((span) => span.sourceLine)));
  const skipped = new Set(parsed.sessions.flatMap((session) => session.skipped.map((k) => k.line)));
  for (const issue of parsed.issues) {
    const span = issue.line >= 1 ? mapped[issue.line - 1] : undefined;
    if (!span || !inBatch.has(`${span.traceId}/${span.spanId}`)) continue;
    // Not used at all: rejected. Used, but part of it was skipped (say, uncaptured arguments): a warning.
    if (!used.has(issue.line)) {
      if (!rejected.has(issue.line)) reasons.push(`span ${span.spanId}: ${issue.message}`);
      rejected.add(issue.line);
    } else if (skipped.has(issue.line)) reasons.push(`span ${span.spanId} (kept): ${issue.message}`);
  }
  const sessions: OtlpReceipt["sessions"] = [];
  // The conversation's raw spans by receipt number: what a session of the receiver's own is made of.
  const own = new Set(stored.map((s) => Number(s.ordinal)));
  for (const session of parsed.sessions) {
    sessions.push(await retryOnConflict(() => ingestSession(projectId, session, ordinalOf, own, options)));
  }
  const names = [...new Set(stored.flatMap((s) => [s.traceId, ...(s.conversationId ? [s.conversationId] : [])]))];
  await forgetUnmappedSessions(projectId, names, new Set(parsed.sessions.map((s) => s.externalId)), own);
  const heldHere = [...held].filter((s) => inBatch.has(`${s.traceId}/${s.spanId}`)).length;
  return { reasons, rejected: rejected.size, held: heldHere, sessions };
}

async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") return run();
    throw error;
  }
}

/** A time of the span in nanoseconds, or -1 when it has none. */
function nanosOf(span: unknown, field: "startTimeUnixNano" | "endTimeUnixNano"): bigint {
  const v = typeof span === "object" && span !== null ? (span as Record<string, unknown>)[field] : undefined;
  if (typeof v === "string" && /^\d+$/.test(v)) return BigInt(v);
  return typeof v === "number" && Number.isFinite(v) ? BigInt(Math.trunc(v)) : -1n;
}

/** By start time, end time, then trace and span id: an order of the spans alone, not of their receipt. */
function inOwnOrder(spans: StoredOtlpSpan[]): StoredOtlpSpan[] {
  const keyed = spans.map((s) => ({ s, start: nanosOf(s.span, "startTimeUnixNano"), end: nanosOf(s.span, "endTimeUnixNano") }));
  const cmp = <T>(x: T, y: T) => (x < y ? -1 : x > y ? 1 : 0);
  keyed.sort(
    (a, b) => cmp(a.start, b.start) || cmp(a.end, b.end) || cmp(a.s.traceId, b.s.traceId) || cmp(a.s.spanId, b.s.spanId),
  );
  return keyed.map((k) => k.s);
}

async function ingestSession(
  projectId: string,
  imported: ImportedSession,
  ordinalOf: (position: number) => number,
  own: ReadonlySet<number>,
  options: { requester: string; now?: Date },
) {
  const { session } = await upsertSession(projectId, {
    externalId: imported.externalId,
    runtime: "otel-genai",
    ...(imported.title ? { title: imported.title } : {}),
    ...(imported.startedAt ? { startedAt: imported.startedAt } : {}),
  });
  const existing = (
    await db().span.findMany({
      where: { sessionId: session.id, seq: { not: null } },
      select: {
        id: true,
        seq: true,
        kind: true,
        role: true,
        toolName: true,
        occurredAt: true,
        sha256: true,
        outcome: true,
        exitCode: true,
        sourceLine: true,
        transcriptState: true,
        original: { select: { pinned: true } },
      },
    })
  ).map(({ original, ...span }) => ({ ...span, pinned: original?.pinned ?? false }));
  // The mapping of the whole conversation is what the session holds, in its order (./otlp-reconcile).
  const plan = planSession(existing, imported.spans, own);
  const skipped = imported.skipped.map((s) => ({ sessionId: session.id, line: ordinalOf(s.line), reason: s.message }));
  if (plan.reconciled) {
    // A record a reading of fewer spans skipped, and this one uses, is no longer skipped.
    const current = new Set(skipped.map((s) => s.line));
    const recorded = await db().skippedRecord.findMany({ where: { sessionId: session.id }, select: { line: true } });
    const gone = [...new Set(recorded.map((r) => r.line))].filter((line) => own.has(line) && !current.has(line));
    if (gone.length > 0) await db().skippedRecord.deleteMany({ where: { sessionId: session.id, line: { in: gone } } });
  }
  if (skipped.length > 0) await db().skippedRecord.createMany({ data: skipped, skipDuplicates: true });
  const { refs, fresh } = plan;
  const submissions = fresh.map(({ imported: s, seq }) => ({ ...s, seq, sourceLine: ordinalOf(s.sourceLine) }));
  // Inside a reordering's transaction the rows are built first: nothing may take a second connection there.
  const ahead =
    rewrites(plan) && submissions.length > 0
      ? await rowsAhead(session, submissions, await ingestPolicy(projectId), { now: options.now })
      : undefined;
  await applyPlan(session.id, plan, async (client) => {
    if (submissions.length === 0) return;
    const ingested = await appendSpans(projectId, session.id, submissions, {
      now: options.now,
      ...(client ? { client } : {}),
      ...(ahead ? { ahead } : {}),
    });
    fresh.forEach((f, i) => refs.set(f.imported.seq, { id: ingested[i]!.id, sha256: ingested[i]!.sha256 }));
  });
  const bodies = new Map(imported.spans.map((s) => [s.seq, s.body]));
  await linkCompactions(projectId, session.id, imported.compactions, refs, bodies, options.requester);
  return { id: session.id, externalId: imported.externalId, newSpans: fresh.length };
}
