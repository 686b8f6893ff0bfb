export { askEvidenceQuestion, evidenceQueriesToExplain, type EvidenceQueryInput, type EvidenceQueryResult } from "./ask";
export { answerAsCsv, answerAsJson, citationJson } from "./export";
export { evidenceQueryFromParams } from "./params";
export { forgetUnreadableVerdicts } from "./verdicts";
