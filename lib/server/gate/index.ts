export { candidateSummaryFor, reclaimSeqRange } from "./candidate-summary";
export { atomJson, decisionJson } from "./decision-json";
export { evaluateGateRequest } from "./evaluate";
export { loadAtoms, reclaim } from "./reclaim";
