/**
 * How the receiver's session comes out the same whatever order its batches arrive in. Each batch
 * maps the whole conversation again (./otlp-ingest), and that mapping is what the session must
 * hold: its spans, in its order. A batch that arrives late changes the mapping in ways appending
 * cannot follow: an earlier turn's spans belong before the ones already stored, a chat request
 * mapped alone made spans of the history it repeats (at its own time) that the earlier turn now
 * records where they happened, a tool call known only from a request becomes the tool span that
 * records it, a span mapped without its parent (its wait over) moves to its parent's conversation.
 *
 * So a session of the receiver's own is reconciled with the mapping: spans it no longer gives are
 * deleted (with their originals, atoms and links: they were a reading of fewer spans, never a
 * record of their own; the raw spans they came from are kept in otlp_span), the others take the
 * mapping's seqs and outcomes, the new ones are inserted at theirs, and its skipped records are the
 * mapping's (./otlp-ingest).
 * A session is the receiver's own when every span with a seq came from a raw span of the mapped
 * conversation (its sourceLine is that raw span's receipt number); a session holding anything else
 * (spans of another path, or of raw spans already forgotten) only has new spans appended, as before.
 * So does a session something was done to: a span replaced by a summary or kept by the gate, or an
 * original under a legal hold. Evidence an act rests on is never moved or deleted to tidy an order.
 */
import type pg from "pg";
import { db, rawTransaction } from "@/lib/db/client";
import { sha256Hex } from "@/lib/core/hash";
import type { ImportedSpan } from "@/lib/importers/shared/types";
import type { StoredSpanRef } from "./compactions";

export interface StoredSeqSpan {
  id: string;
  seq: number | null;
  kind: string;
  role: string | null;
  toolName: string | null;
  occurredAt: Date;
  sha256: string;
  outcome: string | null;
  exitCode: number | null;
  sourceLine: number | null;
  transcriptState: string;
  /** Its original is under a legal hold. */
  pinned: boolean;
}

interface SpanFacts {
  kind: string;
  role?: string | null;
  toolName?: string | null;
  occurredAt: Date;
  sha256: string;
  outcome?: string | null;
  exitCode?: number | null;
}

/** A span's identity across mappings: what it is, when, and its bytes. */
const spanKey = (s: SpanFacts) => `${s.kind}|${s.role ?? ""}|${s.toolName ?? ""}|${s.occurredAt.toISOString()}|${s.sha256}`;

export interface SessionPlan {
  /** The mapping's spans already stored, by the mapping's seq. */
  refs: Map<number, StoredSpanRef>;
  /** The mapping's spans to insert, with the seq each takes. */
  fresh: Array<{ imported: ImportedSpan; seq: number }>;
  /** Stored spans the mapping no longer gives (reconciling only). */
  stale: string[];
  /** Stored spans whose seq changes (reconciling only). */
  moves: Array<{ id: string; seq: number }>;
  /**
   * Stored spans whose outcome the mapping now reads otherwise (a call known from a request whose
   * result a later request repeats), updated in place: the span, its original and links stay.
   */
  outcomes: Array<{ id: string; outcome: string | null; exitCode: number | null }>;
  reconciled: boolean;
}

/**
 * Where each span of the mapping goes. `own` holds the receipt numbers of the conversation's raw
 * spans: when every stored span with a seq came from one and none was acted on (untouched), the
 * session is reconciled (seq = the mapping's), otherwise new spans are appended after the last seq.
 */
export function planSession(
  existing: readonly StoredSeqSpan[],
  mapped: readonly ImportedSpan[],
  own: ReadonlySet<number>,
): SessionPlan {
  const withSeq = existing.filter((s) => s.seq !== null).sort((a, b) => a.seq! - b.seq!);
  const reconciled = withSeq.every((s) => s.sourceLine !== null && own.has(s.sourceLine) && untouched(s));
  const byKey = new Map<string, StoredSeqSpan[]>();
  let nextSeq = 0;
  for (const s of withSeq) {
    // Pushed, not copied: a conversation of many identical spans would copy its list once per span.
    const same = byKey.get(spanKey(s));
    if (same) same.push(s);
    else byKey.set(spanKey(s), [s]);
    nextSeq = Math.max(nextSeq, s.seq! + 1);
  }
  const plan: SessionPlan = { refs: new Map(), fresh: [], stale: [], moves: [], outcomes: [], reconciled };
  const matched = new Set<string>();
  mapped.forEach((span, position) => {
    const match = byKey.get(spanKey({ ...span, sha256: sha256Hex(span.body) }))?.shift();
    const seq = reconciled ? position : nextSeq;
    if (!match) {
      plan.fresh.push({ imported: span, seq });
      if (!reconciled) nextSeq += 1;
      return;
    }
    matched.add(match.id);
    plan.refs.set(span.seq, { id: match.id, sha256: match.sha256 });
    if (!reconciled) return;
    if (match.seq !== position) plan.moves.push({ id: match.id, seq: position });
    const [outcome, exitCode] = [span.outcome ?? null, span.exitCode ?? null];
    if (match.outcome !== outcome || match.exitCode !== exitCode) plan.outcomes.push({ id: match.id, outcome, exitCode });
  });
  if (reconciled) plan.stale = withSeq.filter((s) => !matched.has(s.id)).map((s) => s.id);
  return plan;
}

/** Still as it was received: verbatim in the transcript (not replaced, not kept by a refusal) and not held. */
const untouched = (s: Pick<StoredSeqSpan, "transcriptState" | "pinned">) => s.transcriptState === "VERBATIM" && !s.pinned;

/** Whether the plan changes stored spans (deletes, moves or updates some), not only adds new ones. */
export const rewrites = (plan: SessionPlan): boolean =>
  plan.stale.length > 0 || plan.moves.length > 0 || plan.outcomes.length > 0;

/**
 * Deletes the stale spans, moves the others to their seqs and updates changed outcomes, then hands
 * the connection (inside the same transaction) to `insert` for the new ones: the session never
 * shows half of a reordering. Each seq is unique in a session, so moved spans pass through negative
 * seqs on the way.
 */
export async function applyPlan<T>(
  sessionId: string,
  plan: SessionPlan,
  insert: (client?: pg.PoolClient) => Promise<T>,
): Promise<T> {
  if (!rewrites(plan)) return insert();
  return rawTransaction(async (client) => {
    if (plan.stale.length > 0)
      await client.query("delete from span where session_id = $1::uuid and id = any($2::uuid[])", [sessionId, plan.stale]);
    if (plan.moves.length > 0) {
      const ids = plan.moves.map((m) => m.id);
      const seqs = plan.moves.map((m) => m.seq);
      const move = (seq: string) =>
        client.query(
          `update span s set seq = ${seq} from unnest($2::uuid[], $3::int[]) as m(id, seq)
            where s.session_id = $1::uuid and s.id = m.id`,
          [sessionId, ids, seqs],
        );
      await move("-1 - m.seq");
      await move("m.seq");
    }
    if (plan.outcomes.length > 0)
      await client.query(
        `update span s set outcome = m.outcome::"ToolOutcome", exit_code = m.exit_code
           from unnest($2::uuid[], $3::text[], $4::int[]) as m(id, outcome, exit_code)
          where s.session_id = $1::uuid and s.id = m.id`,
        [sessionId, plan.outcomes.map((o) => o.id), plan.outcomes.map((o) => o.outcome), plan.outcomes.map((o) => o.exitCode)],
      );
    return insert(client);
  });
}

/**
 * Sessions an earlier reading made that this mapping gives no span: a span mapped without its
 * parent, its wait over, into its trace's session, belongs to its parent's conversation once the
 * parent comes. Candidates are the sessions named by the conversation's traces and conversation
 * ids; of each that is the receiver's own and untouched (as planSession has it), the spans of the conversation's
 * raw spans and their skipped records are deleted, and the session too when nothing is left of it.
 */
export async function forgetUnmappedSessions(
  projectId: string,
  names: readonly string[],
  mapped: ReadonlySet<string>,
  own: ReadonlySet<number>,
): Promise<void> {
  const candidates = names.filter((name) => !mapped.has(name));
  if (candidates.length === 0) return;
  const sessions = await db().session.findMany({
    where: { projectId, runtime: "otel-genai", externalId: { in: candidates } },
    select: {
      id: true,
      spans: { select: { id: true, seq: true, sourceLine: true, transcriptState: true, original: { select: { pinned: true } } } },
    },
  });
  for (const session of sessions) {
    const ours = session.spans.filter((s) => s.sourceLine !== null && own.has(s.sourceLine));
    const foreign = session.spans.some((s) => s.seq !== null && (s.sourceLine === null || !own.has(s.sourceLine)));
    const acted = session.spans.some(
      (s) => !untouched({ transcriptState: s.transcriptState, pinned: s.original?.pinned ?? false }),
    );
    if (ours.length === 0 || foreign || acted) continue;
    await rawTransaction(async (client) => {
      await client.query("delete from span where session_id = $1::uuid and id = any($2::uuid[])", [
        session.id,
        ours.map((s) => s.id),
      ]);
      await client.query("delete from skipped_record where session_id = $1::uuid and line = any($2::int[])", [
        session.id,
        [...own],
      ]);
      if (ours.length === session.spans.length) await client.query("delete from session where id = $1::uuid", [session.id]);
    });
  }
}
