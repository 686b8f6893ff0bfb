import type { TranscriptState, Verdict } from "./types";

/**
 * The transcript state a gate verdict leaves a span in. A compaction Custodian was asked about
 * keeps a refused span verbatim (PRESERVED); one it only observed (an import, a runtime that did
 * not ask) already replaced the span, so a refusal there is recorded but the span is RECLAIMED.
 */
export function transcriptStateFor(verdict: Verdict, observed: boolean): TranscriptState {
  if (verdict === "RECLAIM") return "RECLAIMED";
  if (verdict === "RECLAIM_HONEST") return "RECLAIMED_HONEST";
  return observed ? "RECLAIMED" : "PRESERVED";
}
