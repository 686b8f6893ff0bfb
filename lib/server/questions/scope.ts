/**
 * What the parts of an indexed evidence question share: the scope as SQL, span and atom rows, and
 * how a row becomes the span the question engine judges and where it sits in the engine's walk.
 */
import { Prisma } from "@/lib/db/generated/client";
import { isRetrievable, provenanceStatus } from "@/lib/evidence/provenance";
import type { Blocker, Citation, QuestionSpan } from "@/lib/evidence/questions";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { Atom, RetentionPolicy } from "@/lib/evidence/types";
import { originalFromSpan, retrievableWithPointer, sqlTime } from "@/lib/server/provenance";
import type { SpanRowFacts } from "@/lib/server/provenance";
import { type AtomRow, toAtom } from "@/lib/server/atoms";

export interface ScopeSessionRow {
  id: string;
  cwd: string | null;
  span_count: number;
  non_summary_count: number;
  unchecked_count: number;
  seq_count: number;
  seq_min: number | null;
  seq_max: number | null;
  /** As text: a bigint. */
  evidence_version: string;
}

export interface Scope {
  projectId: string;
  /** Null: every session of the project. */
  sessionIds: string[] | null;
  from: Date | null;
  to: Date | null;
}

/** The facts of a span the engine judges it by: those its status rests on, and where it is. */
export interface SpanFactsRow extends SpanRowFacts {
  session_id: string;
  sha256: string;
  tool_name: string | null;
  outcome: ToolOutcome | null;
  exit_code: number | null;
  byte_length: number;
}

export const SPAN_FACTS = Prisma.sql`s.session_id::text as session_id, s.id::text as id, s.seq, s.kind::text as kind, s.class::text as class,
  s.transcript_state::text as transcript_state, s.occurred_at, s.has_pointer, s.original_state::text as original_state,
  s.original_expires_at, s.sha256, s.tool_name, s.outcome::text as outcome, s.exit_code, s.byte_length`;

/** Scopes of at most this many named sessions read their rows by session; larger ones as a project's. */
export const FEW_SESSIONS = 50;

/** Whether a scope names few enough sessions to read their rows session by session. */
export function fewSessions(sessionIds: readonly string[] | null): boolean {
  return sessionIds !== null && sessionIds.length <= FEW_SESSIONS;
}

/**
 * Rows of `alias` (with a session_id column) inside the scope's sessions. Many named sessions are
 * a set to join with, as a project's are: as "= any(...)" the planner intersected the value
 * indexes with every atom of 500 sessions by primary key (3.4M index entries for 879 rows).
 */
export function inSessions(alias: string, scope: Scope): Prisma.Sql {
  const column = Prisma.raw(`${alias}.session_id`);
  if (!scope.sessionIds) return Prisma.sql`${column} in (select id from session where project_id = ${scope.projectId}::uuid)`;
  return fewSessions(scope.sessionIds)
    ? Prisma.sql`${column} = any(${scope.sessionIds}::uuid[])`
    : Prisma.sql`${column} in (select unnest(${scope.sessionIds}::uuid[]))`;
}

/**
 * Candidate atoms of `alias` inside the scope's sessions, where the value indexes find them: they
 * lead with the project, so that a question reads none of another project's atoms. Many named
 * sessions only filter what those indexes find. Joined as uuids to the (session_id, effect) index,
 * 100 sessions had every side-effect atom of theirs read (28k, 430 ms) for 193 that matched;
 * compared as text they cannot lead the plan. Other statements read by session (inSessions).
 */
export function candidatesInSessions(alias: string, scope: Scope): Prisma.Sql {
  const project = inProject(alias, scope);
  if (!scope.sessionIds) return project;
  if (fewSessions(scope.sessionIds)) return Prisma.sql`${project} and ${inSessions(alias, scope)}`;
  return Prisma.sql`${project} and ${Prisma.raw(`${alias}.session_id`)}::text in (select unnest(${scope.sessionIds}::text[]))`;
}

/**
 * Atoms of `alias` in the scope's project. An atom's project is its session's (written with it):
 * the whole project needs no join to session.
 */
export function inProject(alias: string, scope: Scope): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(`${alias}.project_id`)} = ${scope.projectId}::uuid`;
}

/** Spans of `alias` inside the scope's time range (inclusive start, exclusive end). */
export function inTime(alias: string, scope: Scope): Prisma.Sql {
  const column = Prisma.raw(`${alias}.occurred_at`);
  const parts: Prisma.Sql[] = [];
  if (scope.from) parts.push(Prisma.sql`${column} >= ${sqlTime(scope.from)}`);
  if (scope.to) parts.push(Prisma.sql`${column} < ${sqlTime(scope.to)}`);
  return parts.length > 0 ? Prisma.join(parts, " and ") : Prisma.sql`true`;
}

/** Span `alias` is one the engine checks now (isCheckable): not a summary, with a seq, verbatim or its original retrievable. */
export function checkableNow(alias: string, now: Date): Prisma.Sql {
  const a = (column: string) => Prisma.raw(`${alias}.${column}`);
  return Prisma.sql`${a("kind")} <> 'SUMMARY' and ${a("seq")} is not null
    and (${a("transcript_state")} in ('VERBATIM', 'PRESERVED') or ${retrievableWithPointer(alias, now)})`;
}

export function timed(scope: Scope): boolean {
  return scope.from !== null || scope.to !== null;
}

export function inTimeRange(scope: Scope, at: Date): boolean {
  return (
    (scope.from === null || at.getTime() >= scope.from.getTime()) && (scope.to === null || at.getTime() < scope.to.getTime())
  );
}

/** A span as the question engine sees it, from its row (atoms added by the caller). */
export function questionSpan(
  row: SpanFactsRow,
  seq: number,
  policy: RetentionPolicy,
  now: Date,
  extra: Partial<QuestionSpan> = {},
): QuestionSpan {
  const original = originalFromSpan(row.original_state, row.original_expires_at);
  return {
    id: row.id,
    sessionId: row.session_id,
    seq,
    kind: row.kind,
    class: row.class,
    transcriptState: row.transcript_state,
    provenance: provenanceStatus({ hasPointer: row.has_pointer, original, occurredAt: row.occurred_at }, policy, now),
    originalRetrievable: isRetrievable(original, now),
    originalHeld: row.original_state === "HELD",
    atoms: [],
    sha256: row.sha256.trim(),
    byteLength: row.byte_length,
    ...(row.tool_name !== null ? { toolName: row.tool_name } : {}),
    ...(row.outcome !== null ? { outcome: row.outcome } : {}),
    ...(row.exit_code !== null ? { exitCode: row.exit_code } : {}),
    occurredAt: row.occurred_at,
    ...extra,
  };
}

export const keyOf = (sessionId: string, spanId: string) => `${sessionId}/${spanId}`;

/** A judged span's citations and blocker, with where it sits in the engine's walk. */
export interface Judged {
  session: string;
  seq: number;
  /** Has a seq of its own (a summary without one sits after the span whose seq it takes). */
  ownSeq: boolean;
  occurredAt: number;
  id: string;
  citations: Citation[];
  blocker: Blocker | null;
}

export function placed(
  row: { session_id: string; id: string; occurred_at: Date },
  seq: number,
  ownSeq: boolean,
  citations: Citation[],
  blocker: Blocker | null,
): Judged {
  return { session: row.session_id, seq, ownSeq, occurredAt: row.occurred_at.getTime(), id: row.id, citations, blocker };
}

/** Atom rows of many spans, by span, in ordinal order (duplicates dropped). */
export function atomsBySpan(rows: Iterable<AtomRow>): Map<string, Map<number, AtomRow>> {
  const out = new Map<string, Map<number, AtomRow>>();
  for (const row of rows) {
    const key = keyOf(row.session_id, row.span_id);
    let atoms = out.get(key);
    if (!atoms) out.set(key, (atoms = new Map()));
    atoms.set(row.ordinal, row);
  }
  return out;
}

export function orderedAtoms(rows: Map<number, AtomRow> | undefined): Atom[] {
  return rows ? [...rows.values()].sort((a, b) => a.ordinal - b.ordinal).map(toAtom) : [];
}

/** `unnest` of span keys as k(session_id, span_id). */
export function spanKeys(keys: Array<{ session_id: string; id: string }>): Prisma.Sql {
  // Two unnests in a select list (in step) rather than one of two arrays: Citus mis-types the
  // latter's rows when it ships them to the workers as an intermediate result.
  return Prisma.sql`(select unnest(${keys.map((k) => k.session_id)}::uuid[]) as session_id,
    unnest(${keys.map((k) => k.id)}::uuid[]) as span_id) as k`;
}
