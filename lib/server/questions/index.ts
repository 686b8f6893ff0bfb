export {
  askEvidenceQuestion,
  evidenceQueriesToExplain,
  type EvidenceQueryInput,
  type EvidenceQueryResult,
  type QuestionProgress,
} from "./ask";
export { getQuestionJob, questionJobFor } from "./jobs";
export { answerAsCsv, answerAsJson, citationJson } from "./export";
export { evidenceQueryFromParams } from "./params";
export { forgetUnreadableVerdicts } from "./verdicts";
export {
  deleteSavedQuestion,
  listSavedQuestions,
  SAVED_TITLE_MAX,
  type SavedQuestion,
  savedAsQuestion,
  saveQuestion,
} from "./saved";
