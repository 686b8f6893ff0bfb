/**
 * What the scale data set contains, decided up front and deterministically: how many spans each
 * session has, when it ran, how its originals are retained, and how its runtime compacted it.
 * The mix is chosen so every cell of the grid and every answer kind occurs: old sessions whose
 * originals were swept (LOST), legal holds (pinned, DURABLE however old), a retention owner's
 * shortened TTLs (EXPIRING), runtimes that compacted without the gate (NONE), refused
 * compactions (PRESERVED, refusal events), honest summaries and summaries of summaries.
 */
import { DAY_MS } from "@/lib/evidence/policy";
import { rng } from "./transcript";

export type Retention = "policy" | "pinned" | "shortened";
/**
 * gated: the compactor asks the gate with pointers to everything it replaces;
 * pointerless: it first asks without pointers (refused for evidence), then sometimes retries with them;
 * observed: the runtime compacted without asking (what it replaced keeps no pointer);
 * honest: pointers plus an omission manifest, so spans in refusing cells go RECLAIMED_HONEST.
 */
export type Compaction = "none" | "gated" | "pointerless" | "observed" | "honest";

export interface SessionPlan {
  index: number;
  seed: number;
  spans: number;
  startedAt: Date;
  retention: Retention;
  compaction: Compaction;
  /** Spans between compactions. */
  compactEvery: number;
  /** A few seqs in the middle never arrived. */
  gap: boolean;
}

export interface ScaleOptions {
  sessions: number;
  spans: number;
  /** Spans of the one very long session (the first). */
  bigSession: number;
  now: Date;
  seed: number;
}

/** Sessions that ran over the last ~27 months, more of them recently. */
export function planSessions(options: ScaleOptions): SessionPlan[] {
  const r = rng(options.seed);
  const others = options.sessions - 1;
  const rest = options.spans - options.bigSession;
  if (others < 0 || rest < others) throw new Error("not enough spans for that many sessions");

  // Log-normal lengths (median ~600), normalised to the exact total.
  const raw = Array.from({ length: others }, () => {
    const u1 = Math.max(r(), 1e-9);
    const u2 = r();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.min(8000, Math.max(15, Math.exp(Math.log(600) + z)));
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  const lengths = raw.map((x) => Math.max(1, Math.floor((x * rest) / sum)));
  let missing = rest - lengths.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % Math.max(1, lengths.length), missing--) lengths[i]! += 1;

  const plans: SessionPlan[] = [];
  // The long-running session: an ops agent that has been at it for about three weeks.
  plans.push({
    index: 0,
    seed: options.seed * 1000 + 1,
    spans: options.bigSession,
    startedAt: new Date(options.now.getTime() - 26 * DAY_MS),
    retention: "policy",
    compaction: "gated",
    compactEvery: 500,
    gap: false,
  });
  for (let i = 0; i < others; i++) {
    const spans = lengths[i]!;
    const daysAgo = 820 * r() ** 1.6 + 0.2;
    // Spans arrive at most 42 s apart: start early enough that the last one is in the past.
    const startedAt = new Date(options.now.getTime() - daysAgo * DAY_MS - spans * 42_000);
    const x = r();
    const retention: Retention = x < 0.03 ? "pinned" : x < 0.09 ? "shortened" : "policy";
    const y = r();
    const compaction: Compaction =
      spans < 250 || y < 0.35 ? "none" : y < 0.75 ? "gated" : y < 0.83 ? "pointerless" : y < 0.93 ? "observed" : "honest";
    plans.push({
      index: i + 1,
      seed: options.seed * 1000 + 2 + i,
      spans,
      startedAt,
      retention: compaction === "honest" ? "shortened" : retention,
      compaction,
      compactEvery: 250 + Math.floor(r() * 450),
      gap: r() < 0.015,
    });
  }
  return plans;
}
