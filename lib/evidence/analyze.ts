/**
 * One span's evidence analysis: its atoms, then its class with the reasons behind it.
 * Pure: the same input always gives the same analysis.
 */
import { extractAtoms } from "./atoms";
import { classifySpan } from "./classify";
import type { SpanAnalysis, SpanInput } from "./types";

export function analyzeSpan(input: SpanInput): SpanAnalysis {
  const atoms = extractAtoms(input);
  return { atoms, classification: classifySpan(input, atoms) };
}

export { extractAtoms, MAX_SCAN_BYTES } from "./atoms";
export { classifySpan } from "./classify";
export { classRank, maxClass, maxClassOf, isRatchetUp } from "./classes";
