export { candidateSummaryFor, reclaimSeqRange } from "./candidate-summary";
export { atomJson, decisionJson } from "./decision-json";
export { evaluateGateRequest } from "./evaluate";
export { reclaim } from "./reclaim";
export { loadAtoms } from "@/lib/server/atoms";
