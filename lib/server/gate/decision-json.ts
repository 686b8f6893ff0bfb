import type { GateDecision } from "@/lib/evidence/gate";
import type { Atom } from "@/lib/evidence/types";

/** An atom as stored in refusal events and returned by the API: what it is and where its bytes are. */
export function atomJson(atom: Atom) {
  return {
    kind: atom.kind,
    text: atom.text,
    normalized: atom.normalized,
    byteStart: atom.byteStart,
    byteEnd: atom.byteEnd,
    ...(atom.effect ? { effect: atom.effect } : {}),
  };
}

/** A gate decision as the API returns it. */
export function decisionJson(decision: GateDecision) {
  return {
    id: decision.spanId,
    verdict: decision.verdict,
    cell: decision.cell,
    reason: decision.reason,
    ...(decision.atomsAtRisk ? { atomsAtRisk: decision.atomsAtRisk.map(atomJson) } : {}),
  };
}
