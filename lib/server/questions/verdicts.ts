/**
 * Stored per-session verdicts of evidence questions (question_verdict): a question over a whole
 * project judges again only the sessions written since it was last asked, and reads the rest.
 *
 * A verdict is current while three things hold, and only then is it read:
 * - the session's evidence_version is the one it was computed at (raised by triggers in every
 *   transaction that writes what a verdict reads: migration 20261202180000_question_verdicts);
 * - its key is the same: the question's predicates, the retention policy and VERDICT_FORMAT;
 * - the clock is inside the interval in which no original of the session passes its TTL (the only
 *   way time changes an answer: provenance-sql.ts).
 * Anything else the engine reads about a span is a fact of its row, covered by the version.
 */
import { canonicalSha256 } from "@/lib/core/canonical-json";
import { db, sqlRows } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { Blocker, Citation, EvidenceQuestion, SeqGap } from "@/lib/evidence/questions";
import type { ToolOutcome } from "@/lib/evidence/outcomes";
import type { RetentionPolicy } from "@/lib/evidence/types";
import type { ScopeSessionRow } from "./scope";
import { heldTtlAhead, sqlTime } from "@/lib/server/provenance";
import { ANSWER_WINDOW } from "./window";
import { loadCannedQuestions } from "@/lib/server/retention";

/**
 * Raise when what the engine concludes from the same facts changes (a new rule, a fixed bug) or
 * when the stored shape does: verdicts of the old format are then never read again.
 */
const VERDICT_FORMAT = 7;

/**
 * What a question found in one session: the parts of the answer over many sessions. Citations and
 * blockers are the session's first ones in the engine's order, as many as the window held when it
 * was judged (ANSWER_WINDOW at most, fewer or none past the scope's first page: assemble.ts), with
 * exact counts of all, and the tally of attempts all its citations make.
 */
export interface SessionAnswer {
  checked: number;
  citations: Citation[];
  citationCount: number;
  blockers: Blocker[];
  blockerCount: number;
  outcomes: Partial<Record<ToolOutcome, number>>;
  gaps: SeqGap[];
}

export function verdictKey(question: EvidenceQuestion, policy: RetentionPolicy): string {
  // Canonical, so that equal questions and policies key alike however they were built.
  return canonicalSha256({ format: VERDICT_FORMAT, anyOf: question.anyOf, policy });
}

/** What blockers of a session share but for their span: most of them share all of it. */
type BlockerFacts = Omit<Blocker, "sessionId" | "spanId" | "seq">;

/**
 * A session's verdict as stored: citations' bytes as base64, and blockers as [span, seq, facts]
 * with facts listed once (tens of thousands of blockers would otherwise be most of the bytes).
 */
interface StoredAnswer {
  checked: number;
  citationCount: number;
  blockerCount: number;
  outcomes: Partial<Record<ToolOutcome, number>>;
  citations: Array<Omit<Citation, "bytes"> & { bytes?: string }>;
  facts: BlockerFacts[];
  blockers: Array<[spanId: string, seq: number, facts: number]>;
  gaps: SeqGap[];
}

function store(part: SessionAnswer): string {
  const facts: BlockerFacts[] = [];
  const factsIndex = new Map<string, number>();
  // A verdict keeps the first page of each list at most, whatever window it was judged with: a
  // prefix, as assemble.ts reads it.
  const blockers = part.blockers
    .slice(0, ANSWER_WINDOW)
    .map(({ sessionId: _session, spanId, seq, ...shared }): [string, number, number] => {
      const key = JSON.stringify(shared);
      let at = factsIndex.get(key);
      if (at === undefined) factsIndex.set(key, (at = facts.push(shared) - 1));
      return [spanId, seq, at];
    });
  const stored: StoredAnswer = {
    checked: part.checked,
    citationCount: part.citationCount,
    blockerCount: part.blockerCount,
    outcomes: part.outcomes,
    citations: part.citations
      .slice(0, ANSWER_WINDOW)
      .map(({ bytes, ...c }) => (bytes ? { ...c, bytes: Buffer.from(bytes).toString("base64") } : c)),
    facts,
    blockers,
    gaps: part.gaps,
  };
  return JSON.stringify(stored);
}

function restore(sessionId: string, text: string): SessionAnswer {
  const stored = JSON.parse(text) as StoredAnswer;
  return {
    checked: stored.checked,
    citationCount: stored.citationCount,
    blockerCount: stored.blockerCount,
    outcomes: stored.outcomes,
    citations: stored.citations.map(({ bytes, ...c }) =>
      bytes !== undefined ? { ...c, bytes: new Uint8Array(Buffer.from(bytes, "base64")) } : c,
    ),
    // The shared facts (their dropped counts too) are read, never changed.
    blockers: stored.blockers.map(([spanId, seq, at]) => ({ sessionId, spanId, seq, ...stored.facts[at]! })),
    gaps: stored.gaps,
  };
}

/** The stored verdicts under `key` that are current for these sessions (as of the versions read). */
export function verdictsQuery(sessions: ScopeSessionRow[], key: string, now: Date): Prisma.Sql {
  return Prisma.sql`
    select v.session_id::text as session_id, v.answer
      from unnest(${sessions.map((s) => s.id)}::uuid[], ${sessions.map((s) => s.evidence_version)}::bigint[]) as k(session_id, version)
      join question_verdict v on v.session_id = k.session_id and v.question_key = ${key} and v.evidence_version = k.version
     where v.valid_from <= ${now.toISOString()}::timestamp(3) and (v.valid_until is null or v.valid_until > ${now.toISOString()}::timestamp(3))`;
}

/** The current verdicts of these sessions under `key`, read without Prisma (megabytes of text). */
export async function readVerdicts(sessions: ScopeSessionRow[], key: string, now: Date): Promise<Map<string, SessionAnswer>> {
  if (sessions.length === 0) return new Map();
  const query = verdictsQuery(sessions, key, now);
  const rows = await sqlRows<{ session_id: string; answer: string }>(query);
  return new Map(rows.map((r) => [r.session_id, restore(r.session_id, r.answer)]));
}

/**
 * Keeps these sessions' verdicts, computed at `now` from the versions the sessions were read at,
 * each valid until the first instant after `now` at which an original of its session passes its
 * TTL: the spans whose status the clock can change, which span_held_expiry_idx holds (one probe
 * per session). A verdict of a later version is never replaced by one of an earlier.
 */
export async function saveVerdicts(
  sessions: ScopeSessionRow[],
  parts: ReadonlyMap<string, SessionAnswer>,
  key: string,
  now: Date,
): Promise<void> {
  if (sessions.length === 0) return;
  const answers = sessions.map((s) => {
    const part = parts.get(s.id);
    if (!part) throw new Error(`no answer for session ${s.id}`);
    return store(part);
  });
  // The first expiry ahead among the spans whose status the clock changes (heldTtlAhead), laterally
  // from the session row (pushed down per shard on Citus, as a subquery over a list is not).
  const query = Prisma.sql`
    insert into question_verdict (session_id, question_key, evidence_version, valid_from, valid_until, answer)
    select k.session_id, ${key}, k.version, ${sqlTime(now)}, v.original_expires_at, k.answer
      from (select unnest(${sessions.map((s) => s.id)}::uuid[]) as session_id,
                   unnest(${sessions.map((s) => s.evidence_version)}::bigint[]) as version, unnest(${answers}::text[]) as answer) k
      join session se on se.id = k.session_id
      left join lateral (select s.original_expires_at from span s
             where s.session_id = se.id and s.kind <> 'SUMMARY' and ${heldTtlAhead("s", now)}
             order by s.original_expires_at limit 1) v on true
    on conflict (session_id, question_key) do update
       set evidence_version = excluded.evidence_version, valid_from = excluded.valid_from,
           valid_until = excluded.valid_until, answer = excluded.answer
     where question_verdict.evidence_version <= excluded.evidence_version`;
  await sqlRows(query);
}

/**
 * Deletes the verdicts no canned question of its project's current policy can read any more (left
 * by policy changes, edits of canned questions and new verdict formats), for the sweeper. A stale
 * verdict of a current question is replaced when it is next judged, so it stays.
 */
export async function forgetUnreadableVerdicts(): Promise<number> {
  let forgotten = 0;
  const projects = await db().$queryRaw<Array<{ id: string }>>`
    select distinct s.project_id::text as id from question_verdict v join session s on s.id = v.session_id`;
  for (const { id } of projects) {
    const { policy, canned } = await loadCannedQuestions(db(), id);
    const keys = Object.values(canned).map((q) => verdictKey(q, policy));
    forgotten += await db().$executeRaw`
      delete from question_verdict v using session s
       where s.id = v.session_id and s.project_id = ${id}::uuid and v.question_key <> all(${keys}::text[])`;
  }
  return forgotten;
}
