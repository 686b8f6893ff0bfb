/**
 * An answer over many sessions from each one's part (SessionAnswer: judged now, or a stored
 * verdict): the scope's first citations and blockers are its sessions' first ones, in session
 * order, up to the window, and every count is the sum of the parts'.
 *
 * A part's lists are a prefix of its session's, with exact counts: when it was judged, the window
 * may have been filled by the sessions before it, so a session past the first page keeps its counts
 * and few or none of its items. Such a part serves any answer that needs no more of its items
 * than it holds (the whole project asked again: the window is full before it); shortParts names
 * the sessions whose parts hold too few.
 */
import type { Blocker, Citation, SeqGap } from "@/lib/evidence/questions";
import type { ScopeSessionRow } from "./scope";
import type { SessionAnswer } from "./verdicts";

export interface AssembledLists {
  citations: Citation[];
  blockers: Blocker[];
  gaps: SeqGap[];
  checked: number;
  citationCount: number;
  blockerCount: number;
}

/** The sessions whose parts end their lists before this answer takes all it needs of them. */
export function shortParts(
  sessions: readonly ScopeSessionRow[],
  parts: ReadonlyMap<string, SessionAnswer>,
  window: number,
): ScopeSessionRow[] {
  const short: ScopeSessionRow[] = [];
  let citations = 0;
  let blockers = 0;
  for (const s of sessions) {
    const part = parts.get(s.id)!;
    const needCitations = Math.min(window - citations, part.citationCount);
    const needBlockers = Math.min(window - blockers, part.blockerCount);
    if (part.citations.length < needCitations || part.blockers.length < needBlockers) short.push(s);
    citations += needCitations;
    blockers += needBlockers;
  }
  return short;
}

/** The scope's lists and counts from parts that hold what it needs (no shortParts). */
export function assembleLists(
  sessions: readonly ScopeSessionRow[],
  parts: ReadonlyMap<string, SessionAnswer>,
  window: number,
): AssembledLists {
  const out: AssembledLists = { citations: [], blockers: [], gaps: [], checked: 0, citationCount: 0, blockerCount: 0 };
  // Loops, not push(...list): a session can hold more blockers than a call takes arguments.
  for (const s of sessions) {
    const part = parts.get(s.id)!;
    for (const c of part.citations) if (out.citations.length < window) out.citations.push(c);
    for (const b of part.blockers) if (out.blockers.length < window) out.blockers.push(b);
    for (const g of part.gaps) out.gaps.push(g);
    out.checked += part.checked;
    out.citationCount += part.citationCount;
    out.blockerCount += part.blockerCount;
  }
  return out;
}
