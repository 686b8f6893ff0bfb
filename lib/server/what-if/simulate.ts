/**
 * What-if for a retention policy (docs/design.md, "Retention"): over the next N days, what a proposed
 * policy deletes, frees and keeps, which spans turn EXPIRING and LOST, which evidence questions
 * change their answer for which sessions, and how the gate's recorded decisions of the last 30
 * days would have gone; the current policy the same way beside it. Everything is aggregated in the
 * database from the span rows' copied facts (original_state, original_expires_at, byte_length):
 * spans are never loaded. Only the spans that could change an answer (replaced, original held and
 * due within the horizon) come back, a bounded number, with the current answers of their sessions.
 */
import { AppError } from "@/lib/core/errors";
import { DAY_MS, validatePolicy } from "@/lib/evidence/policy";
import { EVIDENTIAL_CLASSES, type EvidentialClass, type RetentionPolicy } from "@/lib/evidence/types";
import { applyPolicyPatch, currentPolicy, diffPolicies, type PolicyFieldChange, type PolicyPatch } from "@/lib/server/retention";
import { questionsAffected, type QuestionChange } from "./questions";
import { REPLAY_DAYS, replayDecisions } from "./replay";

export { REPLAY_DAYS };
import {
  type BucketRow,
  type DeletionRow,
  MAX_DELETIONS_LISTED,
  MAX_SESSION_DAYS_LISTED,
  type SessionDayRow,
  scanHeld,
} from "./scan";

export { MAX_DELETIONS_LISTED, MAX_SESSION_DAYS_LISTED };

export const MAX_HORIZON_DAYS = 3650;
export const DEFAULT_HORIZON_DAYS = 90;

export type ByClass = Record<EvidentialClass, number>;

export interface SimulatedDay {
  /** The UTC date the day starts on (day 0 starts now). */
  date: string;
  originalsDeleted: number;
  bytesFreed: number;
  /** Bytes of originals still held at the end of the day. */
  bytesStored: number;
  storedByClass: ByClass;
  deletedByClass: ByClass;
  freedByClass: ByClass;
  /**
   * Spans whose evidence turns EXPIRING that day (held, TTL ending before their horizon), by class:
   * under a proposal, on day 0 those it moves there (a saved policy applies at once); stored spans
   * do not turn EXPIRING later under an unchanged policy.
   */
  turnedExpiring: ByClass;
  /** Spans still EXPIRING at the end of the day (not yet deleted), by class. */
  expiringHeld: ByClass;
  /** Spans whose evidence turns LOST that day (their original deleted), by class. */
  lost: ByClass;
  /** Sessions with a span turning LOST that day, by class. */
  lostSessions: ByClass;
}

export interface PolicyOutlook {
  policy: RetentionPolicy;
  days: SimulatedDay[];
  /** Held, unpinned originals whose TTL ends before their evidence horizon under the policy, and their sessions. */
  expiring: ByClass;
  expiringSessions: ByClass;
  /**
   * The sessions behind the day series: each session's spans of a class turning EXPIRING or LOST
   * on a day, soonest first (at most MAX_SESSION_DAYS_LISTED; `sessionsTruncated` when cut).
   */
  sessions: SessionDay[];
  sessionsTruncated: boolean;
  questionsAffected: QuestionChange[];
  /** The first originals the policy deletes within the horizon, soonest first (at most MAX_DELETIONS_LISTED). */
  deletions: Deletion[];
  /** Recorded gate decisions of the last 30 days replayed under the policy: how many it refuses. */
  refusals: number;
}

export interface SessionDay {
  date: string;
  sessionId: string;
  class: EvidentialClass;
  turnedExpiring: number;
  lost: number;
}

export interface Deletion {
  sessionId: string;
  spanId: string;
  class: EvidentialClass;
  bytes: number;
  /** When the sweeper deletes it: its expiry under the policy, or now when that has passed. */
  at: string;
}

export interface Simulation {
  from: string;
  horizonDays: number;
  changes: PolicyFieldChange[];
  current: PolicyOutlook;
  proposed: PolicyOutlook;
  refusals: { current: number; proposed: number; gained: number; lost: number; decisions: number; recorded: number };
  /** The question search stopped at its bounds: more sessions than it judged may change. */
  questionsTruncated: boolean;
}

const zero = (): ByClass => ({ NARRATIVE: 0, STRUCTURED: 0, SIDE_EFFECTING: 0 });
const num = (v: bigint | number | null | undefined) => Number(v ?? 0);

export async function simulateRetention(
  projectId: string,
  patch: PolicyPatch,
  horizonDays = DEFAULT_HORIZON_DAYS,
  now = new Date(),
  sessionDaysListed = MAX_SESSION_DAYS_LISTED,
): Promise<Simulation> {
  const { policy: current } = await currentPolicy(projectId);
  const proposed = applyPolicyPatch(current, patch);
  const validation = validatePolicy(proposed);
  if (!validation.valid) {
    throw new AppError("VALIDATION_FAILED", "The proposed policy is not valid", {
      fields: validation.errors.map((e) => ({ path: e.field ? `policy.${e.field}` : "policy", message: e.message })),
    });
  }
  if (!Number.isInteger(horizonDays) || horizonDays < 1 || horizonDays > MAX_HORIZON_DAYS) {
    throw new AppError("VALIDATION_FAILED", "The horizon is out of range", {
      fields: [{ path: "horizonDays", message: `must be a whole number of days from 1 to ${MAX_HORIZON_DAYS}` }],
    });
  }
  const end = new Date(now.getTime() + horizonDays * DAY_MS);
  const [scan, replay] = await Promise.all([
    scanHeld(projectId, current, proposed, now, end, sessionDaysListed),
    replayDecisions(projectId, current, proposed, now),
  ]);
  const buckets = readBuckets(scan.buckets);
  const questions = await questionsAffected(projectId, scan.candidates, now, end, scan.candidatesTruncated);
  const deletionsCurrent = scan.deletionsCurrent.map(toDeletion);
  const deletionsProposed = scan.deletionsProposed.map(toDeletion);
  const outlook = (which: "current" | "proposed", policy: RetentionPolicy): PolicyOutlook => ({
    policy,
    days: buildDays(buckets.held, buckets[which], now, horizonDays, {
      expiring: buckets.expiring[which],
      turned: which === "proposed" ? buckets.turned : zero(),
    }),
    expiring: buckets.expiring[which],
    expiringSessions: buckets.expiringSessions[which],
    sessions: scan.sessions[which].map((r) => toSessionDay(r, now)),
    sessionsTruncated: scan.sessions.truncated[which],
    questionsAffected: questions[which],
    deletions: which === "current" ? deletionsCurrent : deletionsProposed,
    refusals: replay[which],
  });
  return {
    from: now.toISOString(),
    horizonDays,
    changes: diffPolicies(current, proposed),
    current: outlook("current", current),
    proposed: outlook("proposed", proposed),
    refusals: replay,
    questionsTruncated: questions.truncated,
  };
}

interface Bucket {
  cls: EvidentialClass;
  day: number;
  n: number;
  bytes: number;
  sessions: number;
  /** Of those deleted, the spans that were EXPIRING under the policy. */
  expiring: number;
}

/** The scan's grouping sets: held bytes and EXPIRING counts by class, and deletions per class and day under each policy. */
function readBuckets(rows: BucketRow[]) {
  const held: Record<EvidentialClass, number> = zero();
  const out = {
    held,
    turned: zero(),
    current: [] as Bucket[],
    proposed: [] as Bucket[],
    expiring: { current: zero(), proposed: zero() },
    expiringSessions: { current: zero(), proposed: zero() },
  };
  for (const r of rows) {
    const cls = r.cls as EvidentialClass;
    const bucket = (d: number | null, expiring: number): Bucket => ({
      cls,
      day: d ?? -1,
      n: num(r.n),
      bytes: num(r.bytes),
      sessions: num(r.sessions),
      expiring,
    });
    const [byCurrent, byProposed] = [num(r.by_current) === 0, num(r.by_proposed) === 0];
    if (!byCurrent && !byProposed) {
      held[cls] = num(r.bytes);
      out.expiring.current[cls] = num(r.expiring_current);
      out.expiring.proposed[cls] = num(r.expiring_proposed);
      out.expiringSessions.current[cls] = num(r.expiring_sessions_current);
      out.expiringSessions.proposed[cls] = num(r.expiring_sessions_proposed);
      out.turned[cls] = num(r.turned_proposed);
    } else if (byCurrent) {
      if (r.day_current !== null && r.day_current >= 0) out.current.push(bucket(r.day_current, num(r.expiring_current)));
    } else if (r.day_proposed !== null && r.day_proposed >= 0)
      out.proposed.push(bucket(r.day_proposed, num(r.expiring_proposed)));
  }
  return out;
}

function toDeletion(r: DeletionRow): Deletion {
  return {
    sessionId: r.session_id,
    spanId: r.span_id,
    class: r.cls as EvidentialClass,
    bytes: r.bytes,
    at: new Date(r.at).toISOString(),
  };
}

function toSessionDay(r: SessionDayRow, now: Date): SessionDay {
  return {
    date: dateOfDay(now, r.day),
    sessionId: r.session_id,
    class: r.cls as EvidentialClass,
    turnedExpiring: num(r.turned),
    lost: num(r.lost),
  };
}

const dateOfDay = (now: Date, d: number) => new Date(now.getTime() + d * DAY_MS).toISOString().slice(0, 10);

/**
 * Day by day from what is held now and what the policy deletes on each day; `expiring` is what is
 * EXPIRING under the policy now, `turned` what of it the policy moved there (counted on day 0).
 */
export function buildDays(
  held: ByClass,
  buckets: readonly Bucket[],
  now: Date,
  horizonDays: number,
  status: { expiring: ByClass; turned: ByClass },
): SimulatedDay[] {
  const stored = { ...held };
  const expiringHeld = { ...status.expiring };
  const byDay = new Map<number, Bucket[]>();
  for (const b of buckets) byDay.set(b.day, [...(byDay.get(b.day) ?? []), b]);
  const days: SimulatedDay[] = [];
  for (let d = 0; d < horizonDays; d++) {
    const deletedByClass = zero();
    const freedByClass = zero();
    const lostSessions = zero();
    for (const b of byDay.get(d) ?? []) {
      deletedByClass[b.cls] += b.n;
      freedByClass[b.cls] += b.bytes;
      lostSessions[b.cls] += b.sessions;
      expiringHeld[b.cls] = Math.max(0, expiringHeld[b.cls] - b.expiring);
    }
    for (const c of EVIDENTIAL_CLASSES) stored[c] = Math.max(0, stored[c] - freedByClass[c]);
    days.push({
      date: dateOfDay(now, d),
      originalsDeleted: sum(deletedByClass),
      bytesFreed: sum(freedByClass),
      bytesStored: sum(stored),
      storedByClass: { ...stored },
      deletedByClass,
      freedByClass,
      turnedExpiring: d === 0 ? { ...status.turned } : zero(),
      expiringHeld: { ...expiringHeld },
      lost: { ...deletedByClass },
      lostSessions,
    });
  }
  return days;
}

const sum = (v: ByClass) => v.NARRATIVE + v.STRUCTURED + v.SIDE_EFFECTING;
